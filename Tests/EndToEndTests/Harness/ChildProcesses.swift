import Foundation
import Glibc
import PhotoLibSystem

/// Finds a running daemon's child by name and pins it with a pidfd, so a test signals exactly
/// that process, never one that took its number after it exited.
enum ChildProcesses {
    /// The child of `parent` whose command name (`comm`, 15 bytes at most) is `name`, pinned.
    ///
    /// The number read from /proc is only a candidate: it is pinned first (`pidfd_open`), then
    /// /proc is read again for that number (its parent and name), then the pidfd is asked whether
    /// the process still lives. Alive after the second read, the pinned process is the one read:
    /// a number is not reused while its process lives. Otherwise the search starts again.
    static func pinned(childOf parent: ProcessHandle, named name: String) throws -> ProcessHandle? {
        for candidate in children(of: parent.pid) {
            guard let handle = try? ProcessHandle(pid: candidate) else { continue }  // exited meanwhile
            guard let status = stat(of: candidate), status.parent == parent.pid, status.name == String(name.prefix(15)),
                  try handle.isAlive(), try parent.isAlive() else { continue }
            return handle
        }
        return nil
    }

    /// The children of every thread of `pid` (/proc/PID/task/TID/children).
    private static func children(of pid: Int32) -> [Int32] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [] }
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// A process's parent and command name, from /proc/PID/stat.
    private static func stat(of pid: Int32) -> (parent: Int32, name: String)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let name = String(text[text.index(after: open)..<close])
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (parent, name)
    }
}
