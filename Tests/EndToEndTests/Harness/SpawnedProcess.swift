import Foundation
import Glibc
import TestSupport

/// A long-running child of a test (an app, a bus, a browser driver), its output going straight to a file.
///
/// A `ChildProcess` underneath: pinned by a pidfd, signalled only through it, waited on with a
/// deadline off the cooperative pool. Output goes to a file, not a pipe: a child that forks a
/// daemon (dbus, a Flatpak session helper) would keep a pipe's end open, and a reader would
/// never see its end.
final class SpawnedProcess: Sendable {
    private let child: ChildProcess
    /// The file its standard output and error go to.
    let output: String

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], output: String) throws {
        self.output = output
        child = try ChildProcess(executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                 streams: .file(output))
    }

    /// Its pid, for reading /proc while it runs; signal it through `signal`.
    var pid: Int32 { child.pid }

    var isRunning: Bool { child.isRunning }

    /// What it has printed so far (standard output and error together).
    var printed: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    /// How it ended, for a failure message: its exit status or signal, and what it printed.
    var ending: String {
        guard let ending = child.ending else { return "is still running" }
        return "\(ending); it printed: \(printed.isEmpty ? "nothing" : printed)"
    }

    /// Sends `number` to it, never to another process: false once it has ended.
    @discardableResult
    func signal(_ number: Int32) -> Bool { child.signal(number) }

    /// Awaits its end, at most `timeout` seconds, holding no thread of the cooperative pool:
    /// its wait status (0: exited with status 0), or nil while it still runs at the deadline.
    func exited(timeout: Double) async -> Int32? {
        (await child.exited(timeout: timeout)).map(Self.waitStatus)
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; awaited off the pool.
    func stopped(grace: Double = 10) async {
        await child.stopped(grace: grace)
    }

    private static func waitStatus(_ ending: ChildProcess.Ending) -> Int32 {
        switch ending {
        case .exited(let status): status << 8
        case .killed(let signal): signal
        }
    }
}
