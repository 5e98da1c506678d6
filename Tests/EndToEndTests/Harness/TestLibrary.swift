import Foundation
import Glibc
import PhotoLibCore

/// A fresh temporary directory holding a library, a views directory, state and a socket.
///
/// Files are created with raw byte names through libc, never through
/// `FileManager`, so hostile names reach the disk exactly.
final class TestLibrary {
    let root: String
    /// The ordinary user who owns the library and runs the daemon; `nil`: root does.
    let owner: TestOwner?
    /// The filesystem the library lives on when it has one of its own; released after the library is removed.
    private let filesystem: ScratchFilesystem?
    var library: String { root + "/lib" }
    var views: String { root + "/views" }
    var state: String { root + "/state" }
    var socket: String { root + "/sock" }

    /// - Parameter owner: the user who owns everything the test makes (unless
    ///   it says otherwise, as `writeAsRoot` does) and runs the daemon.
    /// - Parameter filesystem: a filesystem of its own to make the library on (else /tmp).
    init(owner: TestOwner? = nil, filesystem: ScratchFilesystem? = nil) throws {
        self.filesystem = filesystem
        var template = Array(((filesystem?.mountPoint ?? "/tmp") + "/photolibd-e2e-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        root = String(cString: made)
        self.owner = owner
        try owner?.own(root)
        try makeDirectory(library)
    }

    deinit {
        _ = try? run("/bin/rm", ["-rf", root])
    }

    func path(_ relative: String) -> String { library + "/" + relative }

    /// Writes a configuration file (TOML) beside the library, the owner's; returns its path.
    func writeConfiguration(_ text: String) throws -> String {
        let file = root + "/photolibd.toml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        try owner?.own(file)
        return file
    }

    func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard let owner else { return }
        // Give every directory made on the way to the owner, as if they had made it.
        var current = path
        while current.hasPrefix(root + "/") {
            try owner.own(current)
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// Writes a file whose path is given as raw bytes below the library, owned by the library's owner.
    func write(_ relative: [UInt8], contents: String = "photo") throws {
        try write(relative, contents: contents, owner: owner.map { ($0.uid, $0.gid) })
    }

    /// Writes a file owned by root, as `sudo cp` leaves one in a library.
    func writeAsRoot(_ relative: String, contents: String = "photo") throws {
        if let slash = relative.lastIndex(of: "/") {
            try makeDirectory(path(String(relative[..<slash])))
        }
        try write(Array(relative.utf8), contents: contents, owner: nil)
    }

    private func write(_ relative: [UInt8], contents: String, owner: (uid: UInt32, gid: UInt32)?) throws {
        let full = Array(library.utf8) + [0x2F] + relative
        let fd = full.withUnsafeBufferPointer { buffer -> Int32 in
            let cString = Array(buffer) + [0]
            return cString.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { throw TestFailure("cannot create \(EscapedName.escape(relative)): errno \(errno)") }
        defer { close(fd) }
        var bytes = Array(contents.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if let owner, fchown(fd, owner.uid, owner.gid) != 0 {
            throw TestFailure("cannot give \(EscapedName.escape(relative)) to uid \(owner.uid): errno \(errno)")
        }
    }

    /// Copies a file made elsewhere (a real photo, say) into the library, owned by the library's owner.
    func copy(_ source: String, to relative: String) throws {
        let destination = path(relative)
        if let slash = relative.lastIndex(of: "/") {
            try makeDirectory(path(String(relative[..<slash])))
        }
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        if let owner { try owner.own(destination) }
    }

    func write(_ relative: String, contents: String = "photo") throws {
        if let slash = relative.lastIndex(of: "/") {
            try makeDirectory(path(String(relative[..<slash])))
        }
        try write(Array(relative.utf8), contents: contents)
    }

    func inode(_ fullPath: String) -> UInt64? {
        var st = stat()
        return lstat(fullPath, &st) == 0 ? UInt64(st.st_ino) : nil
    }

    /// Names (as bytes) directly inside a directory, without `.` and `..`.
    func entries(_ directory: String) -> [[UInt8]] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name != [0x2E] && name != [0x2E, 0x2E] { out.append(name) }
        }
        return out
    }

    /// Every regular file below `directory`, as relative paths (escaped), for comparisons.
    func files(below directory: String) -> Set<String> {
        var out: Set<String> = []
        func walk(_ path: String, _ prefix: [UInt8]) {
            for name in entries(path) {
                let full = path + "/" + String(decoding: name, as: UTF8.self)
                var st = stat()
                let bytesPath = Array(path.utf8) + [0x2F] + name
                let rc = (bytesPath + [0]).withUnsafeBufferPointer { lstat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &st) }
                guard rc == 0 else { continue }
                let relative = prefix.isEmpty ? name : prefix + [0x2F] + name
                if (st.st_mode & S_IFMT) == S_IFDIR {
                    walk(full, relative)
                } else {
                    out.insert(EscapedName.escape(relative))
                }
            }
        }
        walk(directory, [])
        return out
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to completion, returning its exit status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Polls `condition` until it holds or `seconds` pass; the test waits for an outcome, never for a fixed time.
func waitUntil(_ what: String, timeout seconds: Double = 60, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try condition() { return }
    throw TestFailure("timed out after \(seconds) s waiting for \(what)")
}

/// Polls `condition` like `waitUntil`, but fails at once, with what the child
/// printed, when `child` exits before the condition holds: a child that died
/// says why now, not after a timeout.
func waitUntil(_ what: String, timeout seconds: Double = 60, while child: SpawnedProcess, _ condition: () throws -> Bool) async throws {
    try await waitUntil(what, timeout: seconds) {
        if try condition() { return true }
        guard child.isRunning else {
            if try condition() { return true }
            throw TestFailure("while waiting for \(what), the child process \(child.ending)")
        }
        return false
    }
}
