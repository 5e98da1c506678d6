import Foundation
import Glibc
import Testing

@Suite("The library root itself", .serialized)
struct LibraryRootTests {
    @Test("the library moved away empties every view; moved back, views return with the same IDs")
    func rootMovedAndBack() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        try library.write("Album/b.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp("org.example.All", "authorized", uid: 4242)
        try await daemon.addApp("org.example.Some", "limited", uid: 4243)
        try await daemon.ok("select", "org.example.Some", "a.jpg")
        let ids = try await daemon.assets()
        #expect(await library.files(below: daemon.view("org.example.All")) == ["a.jpg", "Album/b.jpg"])

        let aside = library.root + "/aside"
        #expect(rename(library.library, aside) == 0)
        try await waitUntil("the views to empty") {
            let all = await daemon.view("org.example.All"), some = await daemon.view("org.example.Some")
            return library.files(below: all).isEmpty && library.entries(some).isEmpty
        }
        #expect(try await daemon.ok("status").contains("libraryMissing"))

        #expect(rename(aside, library.library) == 0)
        try await waitUntil("the views to come back") {
            let all = await daemon.view("org.example.All"), some = await daemon.view("org.example.Some")
            return library.files(below: all) == ["a.jpg", "Album/b.jpg"] && library.entries(some).count == 1
        }
        #expect(try await daemon.assets() == ids)
        #expect(try await daemon.ok("status").contains("ready"))
    }
}

@Suite("Who may connect", .serialized)
struct PeerIdentityTests {
    /// Runs photolibctl as another uid, with no passwd entry (setpriv).
    func ctl(as uid: Int, _ daemon: RunningDaemon, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", try ReachableCopies.binary("photolibctl")]
                       + arguments + ["--socket", daemon.library.socket])
    }

    @Test("identity comes from SO_PEERCRED: a stranger is refused, a registered app may not administer")
    func rolesFromPeerCredentials() async throws {
        guard getuid() == 0 else {
            Issue.record("this test creates other uids with setpriv and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        chmod(library.root, 0o755)  // let other uids reach the socket; the daemon decides who may talk
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.ok("app", "add", "org.example.Viewer", "--uid", "54321")

        let stranger = try await ctl(as: 54322, daemon, ["status"])
        #expect(stranger.status != 0)
        #expect(stranger.stderr.contains("uid 54322 is neither this daemon's owner nor a registered app"))

        let app = try await ctl(as: 54321, daemon, ["apps"])
        #expect(app.status != 0)
        #expect(app.stderr.contains("Only the library's owner (or root) may call 'apps'"))
    }
}
