import Glibc
import PhotoLibSystem
import Synchronization
import Testing

/// Work for later runs at low priority on threads that end with it, never lowering the caller.
@Suite("Background threads: the places pass yields the cores to everything else")
struct BackgroundThreadsTests {
    /// This thread's nice value (getpriority's -1 is also a nice value: errno tells them apart).
    static func niceOfThisThread() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)  // 0: on Linux, this thread
    }

    @Test("every part runs once, each on a thread of its own at nice 10 whose reads go last, and the caller's own priority is untouched")
    func lowered() {
        let callerNice = Self.niceOfThisThread()
        let seen = Mutex<[Int: (nice: Int32, io: (ioClass: Int, level: Int)?, thread: pthread_t)]>([:])
        BackgroundThreads.run(count: 4, name: "test-low") { index in
            let io = try? BackgroundThreads.ioPriorityOfThisThread()
            let nice = Self.niceOfThisThread()
            seen.withLock { $0[index] = (nice, io, pthread_self()) }
        }
        let all = seen.withLock { $0 }
        #expect(all.keys.sorted() == [0, 1, 2, 3])
        for (index, part) in all {
            #expect(part.nice == max(callerNice, BackgroundThreads.nice), "part \(index) ran at nice \(part.nice)")
            #expect(part.io?.ioClass == 2 && part.io?.level == 7, "part \(index) read at \(String(describing: part.io))")
            #expect(pthread_equal(part.thread, pthread_self()) == 0, "part \(index) ran on the caller's thread")
        }
        #expect(Self.niceOfThisThread() == callerNice, "the caller stays at its own priority")
    }
}
