import Foundation
import Glibc
import Testing

/// A datagram socket standing in for systemd's notification socket.
final class NotifyListener {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw TestFailure("cannot bind \(path): errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next notification's fields (fails after 60 s without one).
    func next() throws -> [String: String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { throw TestFailure("no notification within 60 s") }
        var fields: [String: String] = [:]
        for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    /// Notifications until one has `key`.
    func until(_ key: String) throws -> [String: String] {
        while true {
            let fields = try next()
            if fields[key] != nil { return fields }
        }
    }
}

@Suite("systemd notifications", .serialized)
struct SystemdNotifyTests {
    @Test("READY=1 after the first reconcile, STATUS with counts, WATCHDOG=1 while alive, STOPPING=1 on SIGTERM")
    func notifications() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let listener = try NotifyListener(path: library.root + "/notify")
        let daemon = try RunningDaemon(library)
        try await daemon.start(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"])
        let ready = try listener.until("READY")
        #expect(ready["READY"] == "1")
        #expect(ready["STATUS"]?.contains("Ready: 1 assets") == true)
        #expect(try listener.until("WATCHDOG")["WATCHDOG"] == "1")
        await daemon.stop()
        #expect(try listener.until("STOPPING")["STOPPING"] == "1")
    }
}
