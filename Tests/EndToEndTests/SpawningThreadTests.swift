import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// The harness itself: a sandbox a test starts lives until the test stops it, whatever thread started it.
@Suite("The test harness")
struct SpawningThreadTests {
    @Test("a bwrap --die-with-parent sandbox started from a thread that then ends keeps running (the file-dialog client CI lost)")
    func sandboxOutlivesTheThreadThatAskedForIt() async throws {
        let started = Mutex<(child: ChildProcess, thread: pid_t)?>(nil)
        let mayEnd = DispatchSemaphore(value: 0)
        let asker = Thread {
            let child = try? ChildProcess("/usr/bin/bwrap", ["--dev-bind", "/", "/", "--die-with-parent", "/bin/sleep", "120"], environment: [:])
            // This thread's id, as /proc names it ("PID/task/TID").
            let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                .flatMap { pid_t(($0 as NSString).lastPathComponent) }
            started.withLock { $0 = child.flatMap { child in thread.map { (child, $0) } } }
            mayEnd.wait()
        }
        asker.start()
        try await waitUntil("the thread to start its sandbox") { started.withLock { $0 != nil } }
        let (child, thread) = try #require(started.withLock { $0 })
        // bwrap asks for the parent-death signal once it runs; it runs the command after that.
        try await waitUntil("the sandbox to run its command") {
            let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)) ?? ""
            return !children.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        mayEnd.signal()
        try await waitUntil("the thread that started it to end") { !FileManager.default.fileExists(atPath: "/proc/self/task/\(thread)") }
        // Had the kernel sent the parent-death signal when the thread ended, it was SIGKILL, before ours.
        #expect(child.signal(SIGTERM), "the sandbox had already ended: \(String(describing: child.ending))")
        let ending = await child.exited(timeout: 30)
        #expect(ending == .killed(signal: SIGTERM), "the sandbox \(ending.map { "\($0)" } ?? "did not end within 30 s"), not by our SIGTERM")
    }

    @Test("a signal sent after the child was reaped reaches no process, even one that took its number")
    func signalAfterReapReachesNoOne() async throws {
        let child = try ChildProcess("/bin/true", [])
        #expect(await child.exited(timeout: 30) == .exited(0))
        // Reaped: its number is free. Whatever has it now, the signal goes through the pidfd and stops there.
        #expect(!child.signal(SIGKILL), "a signal to a reaped child was delivered")
        #expect(!child.signal(0))
        // Give its number to a new process (the kernel hands out ns_last_pid + 1 next; other tests
        // spawn too, so try until it lands): a signal by number would now kill that bystander.
        var bystander = try ChildProcess("/bin/sleep", ["30"])
        for _ in 0..<100 where bystander.pid != child.pid {
            await bystander.stopped(grace: 5)
            try String(child.pid - 1).write(toFile: "/proc/sys/kernel/ns_last_pid", atomically: false, encoding: .utf8)
            bystander = try ChildProcess("/bin/sleep", ["30"])
        }
        try #require(bystander.pid == child.pid, "could not give pid \(child.pid) to a new process in 100 tries")
        #expect(!child.signal(SIGKILL), "a signal to a reaped child was delivered")
        #expect(bystander.isRunning, "the signal to the reaped child reached the process that took its number")
        #expect(await bystander.stopped(grace: 5).ending == .killed(signal: SIGTERM))
    }

    @Test("a child that never ends fails its wait at the deadline, naming it; a stop escalates to SIGKILL")
    func waitForAChildThatNeverEnds() async throws {
        // It ignores SIGTERM, as a daemon stuck in a loop would.
        let stubborn = try ChildProcess("/bin/sh", ["-c", "trap '' TERM; while :; do sleep 1; done"], ownProcessGroup: true)
        let started = Date()
        #expect(await stubborn.exited(timeout: 0.5) == nil)
        // Its own wait ends at 0.5 s; the test body resumes when the cooperative pool gets to it, which under
        // the whole suite (hundreds of tests on two threads) has taken 14 s. An end, not a hang, is what counts.
        #expect(Date().timeIntervalSince(started) < 60, "the wait outlived its deadline")
        let (ending, killed) = await stubborn.stopped(grace: 0.5)
        #expect(killed && ending == .killed(signal: SIGKILL))
        // A command that hangs fails with its name and what it printed, within its deadline.
        let before = Date()
        #expect {
            try runBlocking("/bin/sh", ["-c", "echo waiting for nothing; exec sleep 600"], timeout: 1)
        } throws: { error in
            "\(error)".contains("/bin/sh -c echo waiting for nothing; exec sleep 600 did not end within 1 s")
                && "\(error)".contains("it printed: waiting for nothing")
        }
        #expect(Date().timeIntervalSince(before) < 60)
    }

    @Test("a wait for an event that never comes fails at its deadline, naming what it waited for")
    func waitUntilNamesWhatNeverCame() async throws {
        let before = Date()
        await #expect {
            try await waitUntil("the photo that was never written", timeout: 0.3) { false }
        } throws: { error in
            "\(error)" == "timed out after 0.3 s waiting for the photo that was never written"
        }
        #expect(Date().timeIntervalSince(before) < 60, "ended, if later than asked: the pool resumes the test in its turn")
    }
}
