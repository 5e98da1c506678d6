import CSystemShims
import Foundation
import Glibc

/// A process the tests start, pinned by a pidfd from the moment it exists.
///
/// The one way the tests and their harness start a child. It is spawned here (`posix_spawn`, from
/// `SpawningThread`) and `pidfd_open`ed before anything can reap it: nothing else in the test
/// process waits for it (Foundation's `Process` reaps only its own children, on a Dispatch thread
/// that a pool blocked in `waitUntilExit` never runs, which is how the suite once deadlocked).
/// A signal goes through the pidfd (`pidfd_send_signal`), so once the child has ended it reaches
/// no one, never another process that took its number; it is reaped with `waitid(P_PIDFD)`.
/// Every wait has a deadline. The blocking ones (`wait(timeout:)`) are for threads of their own;
/// an async test awaits `exited(timeout:)`, which waits on a thread of its own, never on Swift's
/// cooperative pool (one thread per core: two here).
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    public enum Ending: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }

        /// The exit status a shell would give (128 + signal for a signal).
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .killed(let signal): 128 + signal
            }
        }
    }

    /// Where a child's standard streams go.
    public enum Streams {
        /// Standard output and error appended to the file at this path; input from /dev/null.
        case file(String)
        /// Standard output and error to these descriptors (the caller's, left open); input from /dev/null.
        case descriptors(output: Int32, error: Int32)
        /// The test process's own streams (input from /dev/null).
        case inherited
        /// Standard input and output on `descriptor` (a socket's end, the test keeps the other), error appended to `errors`.
        case channel(Int32, errors: String)
    }

    /// The number the child had when spawned: for messages and for reading /proc while it runs.
    /// Never signal it; signal through `signal(_:)`.
    public let pid: Int32
    /// The command line, for messages.
    public let command: String
    private let pidfd: Int32
    private let ownGroup: Bool
    private let lock = NSLock()
    /// Guarded by `lock`: how it ended, once reaped.
    private var ended: Ending?

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameter environment: the whole environment (the test process's when nil).
    /// - Parameter ownProcessGroup: a process group of its own, which `signalGroup` reaches whole
    ///   (a shell's pipeline, a program that forks helpers).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                streams: Streams = .inherited, ownProcessGroup: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .channel(let descriptor, _) = streams {
            posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch streams {
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .descriptors(let output, let error):
            posix_spawn_file_actions_adddup2(&actions, output, 1)
            posix_spawn_file_actions_adddup2(&actions, error, 2)
        case .inherited:
            break
        case .channel(let descriptor, let errors):
            posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        // Nothing else of the test process's: a pipe's write end held by another test's child would keep
        // that test's read from ever seeing its end, and the tests' output files are their own.
        photolibd_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner blocks some signals; a child must not inherit that (SIGTERM would not stop it).
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        if ownProcessGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        // From the lasting thread: a child's parent-death signal (bwrap --die-with-parent) follows the
        // thread that spawned it, and the pool's threads end when idle.
        let result = SpawningThread.shared.perform { posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
        guard result == 0 else { throw ChildProcessError("cannot run \(executable): \(String(cString: strerror(result)))") }
        // Unreaped, the child keeps its number: this pins exactly it.
        let descriptor = photolibd_pidfd_open(child)
        guard descriptor >= 0 else {
            let failure = errno
            // It cannot be pinned: kill its group or itself while it is still unreaped (its number
            // is still its own), and reap it, so nothing is left behind.
            _ = Glibc.kill(ownProcessGroup ? -child : child, SIGKILL)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            throw ChildProcessError("pidfd_open for \(executable) (pid \(child)): \(String(cString: strerror(failure)))")
        }
        pid = child
        pidfd = descriptor
        ownGroup = ownProcessGroup
        command = ([executable] + arguments).prefix(6).joined(separator: " ")
    }

    deinit {
        // Never wait here (a deinit may run on the cooperative pool): a child still running is
        // killed, and reaped by the teardown thread.
        if ending == nil {
            signalGroup(SIGKILL)
            _ = signal(SIGKILL)
            let descriptor = pidfd
            Teardown.later("reap \(command)") {
                var exited: Int32 = 0
                var status: Int32 = 0
                while photolibd_pidfd_reap(descriptor, 0, &exited, &status) < 0 && errno == EINTR {}
                close(descriptor)
            }
        } else {
            close(pidfd)
        }
    }

    /// How it ended, once it has (reaping it then); nil while it runs.
    public var ending: Ending? { reap() }

    /// Whether it still runs.
    public var isRunning: Bool { ending == nil }

    /// Sends `number` to the child; false once it has ended (the signal then reached no one).
    @discardableResult
    public func signal(_ number: Int32) -> Bool {
        photolibd_pidfd_signal(pidfd, number) == 0
    }

    /// Sends `number` to the child's process group (spawned with `ownProcessGroup`), while the child
    /// is not reaped: until then its number, and so its group's, is no one else's.
    public func signalGroup(_ number: Int32) {
        guard ownGroup else { return }
        lock.withLock {
            guard ended == nil else { return }
            _ = Glibc.kill(-pid, number)
        }
    }

    /// Waits for the child to end, at most `timeout` seconds, blocking the calling thread: only
    /// on a thread of its own (the teardown thread, `onThread`), never on the cooperative pool.
    /// Returns how it ended, or nil when it still runs at the deadline.
    public func wait(timeout: Double) -> Ending? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let ending { return ending }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            // A pidfd becomes readable when its process exits.
            _ = poll(&descriptor, 1, Int32(min(left, 3600) * 1000) + 1)
        }
    }

    /// Awaits the child's end, at most `timeout` seconds, on a thread of its own: returns how it
    /// ended, or nil at the deadline.
    public func exited(timeout: Double) async -> Ending? {
        if let ending { return ending }
        return await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: wait(timeout: timeout)) }.start()
        }
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; waits (blocking: off the pool) until it is reaped.
    /// Returns how it ended and whether it needed the SIGKILL.
    @discardableResult
    public func stop(grace: Double = 10) -> (ending: Ending, killed: Bool) {
        signal(SIGTERM)
        if let ending = wait(timeout: grace) { return (ending, false) }
        signalGroup(SIGKILL)
        signal(SIGKILL)
        // A killed process ends once it leaves the kernel; one stuck in an uninterruptible wait
        // (a dead FUSE server's mount) may take longer, and is reported rather than waited on forever.
        return (wait(timeout: 60) ?? .killed(signal: SIGKILL), true)
    }

    /// `stop(grace:)`, awaited on a thread of its own.
    @discardableResult
    public func stopped(grace: Double = 10) async -> (ending: Ending, killed: Bool) {
        await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: stop(grace: grace)) }.start()
        }
    }

    /// Reaps the child if it has ended (never blocking): how it ended, or nil while it runs.
    private func reap() -> Ending? {
        lock.withLock {
            if let ended { return ended }
            var exited: Int32 = 0
            var status: Int32 = 0
            var result: Int32
            repeat {
                result = photolibd_pidfd_reap(pidfd, WNOHANG, &exited, &status)
            } while result < 0 && errno == EINTR
            guard result == 1 else { return nil }
            ended = exited != 0 ? .exited(status) : .killed(signal: status)
            return ended
        }
    }
}

/// What went wrong starting or waiting for a child, in a sentence.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
