import Foundation
import Glibc
import TestSupport

/// An ordinary user made for one test, who owns a test library and runs the daemon.
///
/// Root ignores permissions and `fs.protected_hardlinks`, and so hides exactly
/// the failures people meet; the tests of messy libraries run photolibd as this
/// user. Made with `useradd` and removed with `userdel` when the test ends (on the teardown thread,
/// after its library and daemon: Sendable for that hand-over alone).
final class TestOwner: @unchecked Sendable {
    let name: String
    let uid: UInt32
    let gid: UInt32

    init() async throws {
        guard getuid() == 0 else { throw TestFailure("making a test user needs root (CI runs the tests as root)") }
        let suffix = String(UInt32.random(in: 0..<UInt32.max), radix: 36)
        name = "plbd-e2e-" + suffix
        // useradd takes a lock on /etc/passwd; tests running at once may meet it taken (exit 10): try again.
        // A uid of its own, drawn at random far above the ones useradd hands out: a uid freed by a test that
        // ended is never another test's a moment later, so a late 'pkill -u' of one test cannot reach the
        // next test's processes (4: the uid drawn is taken, another is drawn).
        var attempt = 0
        while true {
            let uid = UInt32.random(in: 200_000..<2_000_000)
            let result = try await run("/usr/sbin/useradd", ["--system", "--uid", String(uid), "--no-create-home", "--user-group",
                                                       "--shell", "/usr/sbin/nologin", name])
            if result.status == 0 {
                RunRecord.madeUser(name)
                break
            }
            attempt += 1
            guard result.status == 10 || result.status == 4 || result.stderr.contains("lock"), attempt < 50 else {
                throw TestFailure("useradd \(name) failed (\(result.status)): \(result.stderr)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard let entry = getpwnam(name) else { throw TestFailure("useradd made \(name), but getpwnam cannot find it") }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    deinit {
        var last = ""
        for _ in 0..<50 {
            guard let result = try? runBlocking("/usr/sbin/userdel", [name]), result.status != 0 else { return }
            last = result.stderr
            // 10: another test holds /etc/passwd's lock; 8: a process of this user (a daemon
            // stopped a moment ago) has not exited yet. Both pass: try again, rather than leave the user behind.
            if result.status != 10, result.status != 8, !result.stderr.contains("lock") { break }
            usleep(100_000)
        }
        // Left behind: say so, with what still runs as it, so the test that leaks a process can be found.
        let running = (try? runBlocking("/usr/bin/ps", ["-o", "pid=,args=", "-u", String(uid)]).stdout) ?? ""
        FileHandle.standardError.write(Data("test user \(name) (uid \(uid)) could not be removed: \(last)still running: \(running)\n".utf8))
    }

    /// The arguments that run a command as this user, with only its own group.
    func command(_ executable: String) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable]
    }

    /// Gives a path (not what is below it) to this user.
    func own(_ path: String) throws {
        guard chown(path, uid, gid) == 0 else { throw TestFailure("chown \(path): errno \(errno)") }
    }
}
