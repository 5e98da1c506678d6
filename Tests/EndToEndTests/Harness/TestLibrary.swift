import Foundation
import Glibc
import PhotoLibCore
import TestSupport

/// A fresh temporary directory holding a library, a views directory, state and a socket.
///
/// Files are created with raw byte names through libc, never through
/// `FileManager`, so hostile names reach the disk exactly.
final class TestLibrary: @unchecked Sendable {
    let root: String
    /// The ordinary user who owns the library and runs the daemon; `nil`: root does.
    let owner: TestOwner?
    /// The filesystem the library lives on when it has one of its own; released after the library is removed.
    private let filesystem: ScratchFilesystem?
    /// Where the library and the views are, when not beside the state (on a mount of their own,
    /// which the test makes them on itself: a NAS's export, say).
    private let placedUnder: String?
    var library: String { (placedUnder ?? root) + "/lib" }
    var views: String { (placedUnder ?? root) + "/views" }
    var state: String { root + "/state" }
    var socket: String { root + "/sock" }

    /// - Parameter owner: the user who owns everything the test makes (unless
    ///   it says otherwise, as `writeAsRoot` does) and runs the daemon.
    /// - Parameter filesystem: a filesystem of its own to make the library on (else /tmp).
    /// - Parameter placedUnder: the directory `lib` and `views` are in, made there by the test (else beside the state).
    init(owner: TestOwner? = nil, filesystem: ScratchFilesystem? = nil, placedUnder: String? = nil) throws {
        self.filesystem = filesystem
        self.placedUnder = placedUnder
        var template = Array(((filesystem?.mountPoint ?? "/tmp") + "/photolibd-e2e-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: \(errno)") }
        root = String(cString: made)
        RunRecord.madeDirectory(root)
        self.owner = owner
        try owner?.own(root)
        if placedUnder == nil { try makeDirectory(library) }
    }

    /// Sendable for one hand-over: to the teardown thread, once the test is done with it.
    deinit {
        // Removed on the teardown thread, then its owner and filesystem let go there: never a wait
        // on the cooperative pool, and never before a daemon that used it has stopped.
        Teardown.later("remove \(root)") { [root, owner, filesystem] in
            _ = try? runBlocking("/bin/rm", ["-rf", root])
            withExtendedLifetime((owner, filesystem)) {}
        }
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

    /// How many names the file has (nil when it is not there).
    func linkCount(_ fullPath: String) -> UInt64? {
        var st = stat()
        return lstat(fullPath, &st) == 0 ? UInt64(st.st_nlink) : nil
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

/// Runs a program to completion, returning its exit status and output; the test's task waits for the
/// child's end (its pidfd, on a thread of its own) without holding a thread of Swift's cooperative pool.
///
/// Its output goes to files, not pipes: a daemon it leaves behind (dbus-daemon --fork, a Flatpak
/// session helper) holding a pipe's end would keep a reader waiting for an end that never comes.
/// It runs in a process group of its own, killed whole after `timeout` seconds, so a program that
/// hangs fails its test with what it printed instead of holding the run until CI's limit.
///
/// Why async: the pool has one thread per core, two here, shared by every test of the process. A
/// test blocked in a photolibctl that takes 10 s under load held one of them; two such tests stalled
/// every other, and unit tests' deadlines ran out while nothing of theirs ran.
@discardableResult
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
         timeout: Double = 300) async throws -> (status: Int32, stdout: String, stderr: String) {
    let (stdout, stderr, child) = try ChildRun.start(executable, arguments, environment: environment)
    let ending = await child.exited(timeout: timeout)
    return try ChildRun.finish(child, ending, executable, arguments, timeout: timeout, stdout: stdout, stderr: stderr)
}

/// `run`, blocking the calling thread until the child ends: only where no task can wait, on the
/// teardown thread (`Teardown.later`) or in a deinit, never in a test's task.
@discardableResult
func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                 timeout: Double = 300) throws -> (status: Int32, stdout: String, stderr: String) {
    let (stdout, stderr, child) = try ChildRun.start(executable, arguments, environment: environment)
    let ending = child.wait(timeout: timeout)
    return try ChildRun.finish(child, ending, executable, arguments, timeout: timeout, stdout: stdout, stderr: stderr)
}

/// The start and the end of `run` and `runBlocking`, which differ only in how they wait.
private enum ChildRun {
    static func start(_ executable: String, _ arguments: [String], environment: [String: String]?) throws
        -> (TemporaryOutput, TemporaryOutput, ChildProcess) {
        let stdout = try TemporaryOutput()
        let stderr = try TemporaryOutput()
        let child = try ChildProcess(executable, arguments, environment: environment,
                                     streams: .descriptors(output: stdout.descriptor, error: stderr.descriptor), ownProcessGroup: true)
        return (stdout, stderr, child)
    }

    static func finish(_ child: ChildProcess, _ ending: ChildProcess.Ending?, _ executable: String, _ arguments: [String], timeout: Double,
                       stdout: TemporaryOutput, stderr: TemporaryOutput) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let ending else {
            child.signalGroup(SIGKILL)
            child.signal(SIGKILL)
            // Reaped at once unless it is stuck in the kernel (a dead FUSE server's mount): then said, not waited on.
            let after = child.wait(timeout: 5).map { "\($0)" } ?? "is still running 5 s after SIGKILL"
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) did not end within \(Int(timeout)) s and was killed (it \(after)); "
                              + "it printed: \(stdout.text.suffix(2000)) \(stderr.text.suffix(2000))")
        }
        return (ending.shellStatus, stdout.text, stderr.text)
    }
}

/// An unlinked temporary file a child writes its output to; read back once it has ended.
private final class TemporaryOutput {
    let descriptor: Int32

    init() throws {
        var template = Array("/tmp/photolibd-test-output-XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { buffer in
            let made = mkstemp(buffer.baseAddress!)
            if made >= 0 { unlink(buffer.baseAddress!) }
            return made
        }
        guard descriptor >= 0 else { throw TestFailure("mkstemp failed: errno \(errno)") }
    }

    var text: String { ChildProcess.contents(descriptor) }

    deinit { close(descriptor) }
}

/// Polls `condition` until it holds or `seconds` pass; the test waits for an outcome, never for a fixed time.
func waitUntil(_ what: String, timeout seconds: Double = 60, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try await condition() { return }
    throw TestFailure("timed out after \(seconds) s waiting for \(what)")
}

/// Polls `condition` like `waitUntil`, but fails at once, with what the child
/// printed, when `child` exits before the condition holds: a child that died
/// says why now, not after a timeout.
func waitUntil(_ what: String, timeout seconds: Double = 60, while child: SpawnedProcess, _ condition: () async throws -> Bool) async throws {
    try await waitUntil(what, timeout: seconds) {
        if try await condition() { return true }
        guard child.isRunning else {
            if try await condition() { return true }
            throw TestFailure("while waiting for \(what), the child process \(child.ending)")
        }
        return false
    }
}
