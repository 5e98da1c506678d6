import ArgumentParser
import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

struct RescanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan",
        abstract: "Re-walk the whole library, re-add every inotify watch and reconcile every view.",
        discussion: """
            Returns when the rescan is done. On a terminal it shows progress as it goes. Use it after \
            raising fs.inotify.max_user_watches, or when you doubt a view.
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let progress = isatty(STDERR_FILENO) == 1 && !output.json ? ProgressLine(socket: connection.socket) : nil
        progress?.start()
        let result = try connection.withConnection { try $0.call(.rescan, NoParams(), returning: RescanResult.self) }
        progress?.stop()
        if output.json { return Output.json(result) }
        print("Rescanned \(Output.count(result.assets, "asset")) in \(Output.count(result.directories, "directory", "directories")) in \(String(format: "%.2f", result.seconds)) s; every view is reconciled.")
        if result.failedWatches > 0 {
            Output.error("\(result.failedWatches) directories still have no inotify watch; raise fs.inotify.max_user_watches (photolibctl doctor says how far).")
        }
    }
}

/// A line on stderr that shows the daemon's scan progress, redrawn in place.
///
/// Polls `status` on its own connection, because the `rescan` request's
/// connection is busy waiting for its reply.
final class ProgressLine: @unchecked Sendable {
    private let socket: String?
    private let done = NSCondition()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(socket: String?) {
        self.socket = socket
    }

    func start() {
        let thread = Thread { [self] in
            let connection = try? PhotoLibConnection(socketPath: PhotoLibConnection.socketPath(explicit: socket), receiveTimeout: 5)
            done.lock()
            while !stopped {
                if let status = try? connection?.call(.status, NoParams(), returning: StatusResult.self), status.state == "scanning" {
                    draw("Scanning: \(status.scannedFiles) files in \(status.scannedDirectories) directories…")
                }
                _ = done.wait(until: Date(timeIntervalSinceNow: 0.2))
            }
            draw("")
            done.unlock()
            finished.signal()
        }
        thread.start()
    }

    func stop() {
        done.lock()
        stopped = true
        done.signal()
        done.unlock()
        // Wait for the line to be cleared before the result is printed.
        finished.wait()
    }

    private func draw(_ text: String) {
        StandardError.write("\r\u{1B}[K\(text)")
    }
}
