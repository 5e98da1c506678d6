import Foundation
import Glibc

/// A child started with posix_spawn, its output going straight to a file.
///
/// Used where Foundation's `Process` misbehaves: a child that execs into
/// another program (systemd-socket-activate → photolibd) under `Process`
/// left the test holding pipe ends, so reads never saw EOF.
final class SpawnedProcess {
    let pid: pid_t
    /// The file its standard output and error go to.
    let output: String
    private var exitStatus: Int32?

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], output: String) throws {
        self.output = output
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let child = try spawnChild(executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                   actions: &actions, ownProcessGroup: false)
        pid = child
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 10)
        }
    }

    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
            exitStatus = status
            return false
        }
        // Not our child any more (reaped elsewhere): its pid may be another process's now, never to be signalled.
        if reaped < 0 && errno == ECHILD {
            exitStatus = 0x7F00  // "exited with 127": how it ended is not known
            return false
        }
        return true
    }

    /// What it has printed so far (standard output and error together).
    var printed: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    /// How it ended, for a failure message: its exit status or signal, and what it printed.
    var ending: String {
        guard let status = exitStatus else { return "is still running" }
        let how = status & 0x7F == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(status & 0x7F)"
        return "\(how); it printed: \(printed.isEmpty ? "nothing" : printed)"
    }

    func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// The same, for async tests, waiting without holding a thread: tests share a cooperative
    /// pool as wide as the machine's cores (two here), and one blocked there stalls every other
    /// test's waits until it is done.
    func exited(timeout: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline {
            // Cancelled: the deadline check ends the wait anyway.
            try? await Task.sleep(for: .milliseconds(5))
        }
        return exitStatus
    }

    /// Waits for the child to exit; returns its wait status, or nil after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline { usleep(5_000) }
        return exitStatus
    }
}

/// posix_spawn with every signal unblocked (the test runner blocks some), the environment given
/// whole, and, with `ownProcessGroup`, a process group of its own to be killed whole.
func spawnChild(_ executable: String, _ arguments: [String], environment: [String: String],
                actions: inout posix_spawn_file_actions_t, ownProcessGroup: Bool) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    if ownProcessGroup { posix_spawnattr_setpgroup(&attributes, 0) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var child: pid_t = 0
    // From the lasting thread: a child's `--die-with-parent` follows the thread that spawned it.
    let result = SpawningThread.shared.perform { posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
    guard result == 0 else { throw TestFailure("cannot run \(executable): \(String(cString: strerror(result)))") }
    return child
}
