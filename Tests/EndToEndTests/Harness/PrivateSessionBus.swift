import Foundation
import Glibc

/// A session bus of the library owner's own (`dbus-daemon --session`), for tests of what
/// photolibd says on the desktop. Stop it with `defer { bus.stop() }`, which also keeps it
/// alive to the end of the test (ARC may end an object's life at its last use).
final class PrivateSessionBus {
    let address: String
    private let daemon: SpawnedProcess

    /// Starts it with its socket in the library's root and waits until it listens.
    static func start(for library: TestLibrary, owner: TestOwner) async throws -> PrivateSessionBus {
        let socket = library.root + "/bus"
        let command = owner.command("/usr/bin/dbus-daemon")
        let daemon = try SpawnedProcess(command[0], Array(command.dropFirst()) + [
            "--session", "--nofork", "--nopidfile", "--address=unix:path=\(socket)",
        ], output: library.root + "/bus.out")
        try await waitUntil("the bus to listen", while: daemon) { FileManager.default.fileExists(atPath: socket) }
        return PrivateSessionBus(address: "unix:path=\(socket)", daemon: daemon)
    }

    private init(address: String, daemon: SpawnedProcess) {
        self.address = address
        self.daemon = daemon
    }

    func stop() { daemon.signal(SIGTERM) }
}
