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
        try allPinned(childrenOf: parent, named: name).first
    }

    /// Every child of `parent` whose command name is `name`, each pinned as `pinned` pins one.
    static func allPinned(childrenOf parent: ProcessHandle, named name: String) throws -> [ProcessHandle] {
        try children(of: parent.pid).compactMap { candidate in
            guard let handle = try? ProcessHandle(pid: candidate) else { return nil }  // exited meanwhile
            guard let status = stat(of: candidate), status.parent == parent.pid, status.name == String(name.prefix(15)),
                  try handle.isAlive(), try parent.isAlive() else { return nil }
            return handle
        }
    }

    /// The process numbered `pid` pinned, if it is a process named `name` (its `comm`) once pinned:
    /// for a process the tests did not start (a page server `photolibctl ui` started), known by a
    /// number read from a file. Checked after pinning, so the handle is that process, never one
    /// that took the number after it exited.
    static func pinned(_ pid: Int32, named name: String) throws -> ProcessHandle? {
        guard let handle = try? ProcessHandle(pid: pid) else { return nil }
        guard let status = stat(of: pid), status.name == String(name.prefix(15)), try handle.isAlive() else { return nil }
        return handle
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
