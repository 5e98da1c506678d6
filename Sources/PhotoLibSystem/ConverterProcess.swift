import Glibc

/// A one-shot helper that reads one open file on its standard input and writes another on its
/// standard output: the daemon's way to have `photolibd-thumbnailer --to-jpeg` convert a picked
/// photo without mapping an image decoder itself.
///
/// The helper bounds its own memory and CPU time (`ResourceLimit`), so the wait for it ends.
public enum ConverterProcess {
    /// How a run ended, when not with status 0.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What the helper said on its standard error (at most 2 KiB), or how it ended.
        public let reason: String
        public var description: String { reason }
    }

    /// Runs `executable` with `arguments`, `input` as its standard input and `output` as its
    /// standard output; returns when it has ended. Throws `Failure` for a helper that failed,
    /// `SystemCallError` for one that could not be run.
    public static func run(_ executable: String, _ arguments: [String], input: FileDescriptor, output: FileDescriptor) throws -> Void {
        var ends: [Int32] = [-1, -1]
        _ = try systemCall("pipe") { pipe(&ends) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Close-on-exec, so no other child the daemon starts meanwhile holds the pipe open.
        for end in ends { _ = try systemCall("fcntl F_SETFD") { fcntl(end, F_SETFD, FD_CLOEXEC) } }
        defer { _ = Glibc.close(readEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies it makes; the originals stay closed in the child.
        posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { environment.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, &environment)
        _ = Glibc.close(writeEnd)
        guard spawned == 0 else { throw SystemCallError("posix_spawn \(executable)", errno: spawned) }
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count: Int
            do {
                count = try systemCall("read") { read(readEnd, &buffer, buffer.count) }
            } catch {
                // Only what the helper said is lost: its exit status, read next, still decides.
                said += Array("(its error output could not be read: \(error))".utf8)
                break
            }
            if count == 0 { break }
            if said.count < 2048 { said += buffer.prefix(count) }
        }
        var status: Int32 = 0
        _ = try systemCall("waitpid \(child)") { waitpid(child, &status, 0) }
        let signal = status & 0x7F
        if signal == 0 && (status >> 8) & 0xFF == 0 { return }
        var words = String(decoding: said, as: UTF8.self)
        while words.last?.isWhitespace == true { words.removeLast() }
        if words.isEmpty {
            words = signal == 0 ? "it exited with status \((status >> 8) & 0xFF)" : "it was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        }
        throw Failure(reason: words)
    }
}
