import Foundation
import Glibc
import PhotoLibCore
import PhotoLibSystem
import Testing

/// The system layer on a real kernel and a temporary directory: what each call
/// answers, and that a failure is told apart from an absence.
@Suite("The system layer")
final class SystemLayerTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-system-\(UInt32.random(in: 0..<UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)  // a leftover in /tmp is all a failure here costs
    }

    @Test("a helper process talks over its socket pair, and says how it ended: an exit status, or the signal that killed it")
    func helperProcess() throws {
        let echo = try HelperProcess("/bin/sh", ["-c", #"read -r line; printf '%s!\n' "$line"; exit 3"#])
        try echo.channel.setReceiveTimeout(seconds: 30)  // a helper that never answers fails the read, not the run
        try echo.channel.write(Array("hello\n".utf8))
        var heard: [UInt8] = []
        while !heard.contains(0x0A) {
            let chunk = try echo.channel.read()
            if chunk.isEmpty { break }
            heard += chunk
        }
        #expect(String(decoding: heard, as: UTF8.self) == "hello!\n")
        #expect(try echo.reap() == .exited(3))

        let stuck = try HelperProcess("/bin/sh", ["-c", "exec sleep 60"])
        stuck.kill()
        #expect(try stuck.reap() == .killed(signal: SIGKILL))
        #expect(HelperProcess.Ending.killed(signal: SIGSEGV).description.contains("signal 11"))
    }

    @Test("a helper that cannot be started is an error naming it, not a process")
    func helperThatCannotStart() {
        #expect(throws: SystemCallError.self) { try HelperProcess(directory + "/no-such-program", []) }
    }

    @Test("private files: written 0600 and read back; a missing file is nil; a directory is an error")
    func privateFiles() throws {
        let path = directory + "/secret"
        try PrivateFiles.write(path, Array("s3cret".utf8))
        #expect(try PrivateFiles.read(path) == Array("s3cret".utf8))
        #expect(try PathInspection.lookUp(path).map { $0.permissions & 0o777 } == 0o600)
        #expect(try PrivateFiles.read(directory + "/absent") == nil)
        #expect(throws: SystemCallError.self) { try PrivateFiles.read(directory) }
    }

    @Test("a file someone has open for writing is told from one no one writes; a file that is gone cannot be told")
    func openForWriting() throws {
        try PrivateFiles.write(directory + "/saved.jpg", [1, 2, 3])
        let dir = try Directory.open(path: directory)
        defer { dir.close() }
        let name = FileName("saved.jpg")!
        #expect(Self.onceNoCopyIsHeld { FileCopy.isOpenForWriting(name, in: dir) } == false)
        let writer = open(directory + "/saved.jpg", O_WRONLY | O_APPEND)
        #expect(writer >= 0)
        #expect(FileCopy.isOpenForWriting(name, in: dir) == true, "a writer holds it")
        close(writer)
        let reader = open(directory + "/saved.jpg", O_RDONLY)
        #expect(Self.onceNoCopyIsHeld { FileCopy.isOpenForWriting(name, in: dir) } == false, "a reader does not count")
        close(reader)
        #expect(FileCopy.isOpenForWriting(FileName("gone.jpg")!, in: dir) == nil)
    }

    /// Asks again for up to 10 s while the answer is "open for writing". A process another test
    /// spawns at that moment holds a copy of every descriptor of this one until it execs, O_CLOEXEC
    /// or not (CI saw the file `PrivateFiles.write` had just closed still counted as open for
    /// writing, under load); that copy goes at the exec, a real writer never does.
    static func onceNoCopyIsHeld(_ ask: () -> Bool?) -> Bool? {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let answer = ask()
            if answer != true || Date() > deadline { return answer }
            usleep(20_000)
        }
    }

    @Test("looking up a path: nil only when nothing is there, the file's facts otherwise")
    func lookUp() throws {
        #expect(try PathInspection.lookUp(directory + "/absent") == nil)
        try PrivateFiles.write(directory + "/file", [1, 2, 3])
        #expect(try PathInspection.lookUp(directory + "/file")?.size == 3)
        // A path through a file (ENOTDIR) is as absent as a missing one: nothing can be there.
        #expect(try PathInspection.lookUp(directory + "/file/below") == nil)
        #expect(try PathInspection.lookUp(directory)?.kind == .directory)
    }

    @Test("a stale socket file is removed before binding again; anything else found there is left")
    func staleSockets() throws {
        let notASocket = directory + "/sock"
        try PrivateFiles.write(notASocket, Array("mine".utf8))
        try SocketFile.removeStale(notASocket)
        #expect(try PrivateFiles.read(notASocket) == Array("mine".utf8), "a regular file is not a socket to remove")
        try SocketFile.removeStale(directory + "/nothing-here")
    }

    @Test("making directories reports only those it made, outermost first, and is quiet about those already there")
    func makeDirectories() throws {
        let made = try ProcessIdentity.makeDirectories(directory + "/a/b/c")
        #expect(made == [directory + "/a", directory + "/a/b", directory + "/a/b/c"])
        #expect(try ProcessIdentity.makeDirectories(directory + "/a/b/c").isEmpty)
        try PrivateFiles.write(directory + "/plain", [])
        #expect(throws: SystemCallError.self) { try ProcessIdentity.makeDirectories(directory + "/plain/x") }
    }

    @Test("the system clock is the kernel's time of day")
    func clock() {
        // Read side by side with Foundation's reading of the same clock. Not bracketed by a
        // before and an after: this machine's wall clock is stepped now and then (a VM's sync).
        let now = SystemClock().now()
        let foundation = Int64(Date().timeIntervalSince1970)
        #expect(abs(foundation - now) <= 2, "\(now) vs \(foundation)")
    }

    @Test("a file is placed under the first free name, never over another; a name gone is nil; a directory gone is nil, not an error")
    func placing() throws {
        let root = try Directory.open(path: directory)
        defer { root.close() }
        for name in ["a.jpg", "a (2).jpg", "b.jpg"] { _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(name.utf8)) }
        let album = try Directory.openOrMake(RelativePath(escaped: "Imported/2026")!, in: root, mode: 0o700)
        defer { album.close() }
        _ = FileManager.default.createFile(atPath: directory + "/Imported/2026/a.jpg", contents: Data("old".utf8))
        func candidate(_ attempt: Int) -> FileName { ImportNaming.candidate(for: FileName("a.jpg")!, attempt: attempt) }
        var announced: [String] = []
        let placed = try Directory.renameToFreeName(FileName("a.jpg")!, in: root, into: album, candidates: candidate,
                                                    announce: { announced.append($0.escaped) })
        #expect(placed?.escaped == "a (2).jpg")
        #expect(announced == ["a.jpg", "a (2).jpg"])
        #expect(try String(contentsOfFile: directory + "/Imported/2026/a.jpg", encoding: .utf8) == "old")
        #expect(try Directory.renameToFreeName(FileName("gone.jpg")!, in: root, into: album, candidates: { _ in FileName("x.jpg")! }) == nil)
        #expect(try Directory.openIfPresent(RelativePath(escaped: "Nowhere")!, in: root) == nil)
        #expect(try Directory.openIfPresent(RelativePath(escaped: "b.jpg")!, in: root) == nil, "a file where the album was: no album there")
        #expect(try Directory.openIfPresent(RelativePath(escaped: "Imported")!, in: root).map { $0.close(); return true } == true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/Link", withDestinationPath: directory + "/Imported")
        #expect(throws: SystemCallError.self, "a symlink on the way is refused") {
            try Directory.openOrMake(RelativePath(escaped: "Link/2027")!, in: root, mode: 0o700)
        }
    }
}
