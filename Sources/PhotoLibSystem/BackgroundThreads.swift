import CSystemShims
import Glibc

/// Work done for later, not for anyone waiting (each photo's place after a scan): on threads of
/// its own at nice 10, whose reads go after everyone else's (best effort, level 7). A directory
/// moved in meanwhile is indexed and linked first; the places take what the cores leave, about a
/// tenth of a core when both are busy. Not SCHED_IDLE or the idle I/O class, as GNOME's Tracker
/// uses: those can starve the work for as long as something else runs, and a person's places
/// would then never come on a machine that is always busy.
///
/// Threads of its own because a thread cannot raise its priority again without CAP_SYS_NICE:
/// lowering one of Dispatch's or Swift's pool threads would slow whatever ran on it next.
public enum BackgroundThreads {
    /// The nice value of the work's threads.
    public static let nice: Int32 = 10

    /// Runs `body(index)` for every index below `count`, each on a new low-priority thread, and
    /// returns once all have finished. A thread that cannot be made (out of threads) costs only
    /// speed: its part then runs on the calling thread, at the caller's priority.
    public static func run(count: Int, name: String, _ body: @escaping @Sendable (Int) -> Void) {
        var started: [pthread_t] = []
        var inline: [Int] = []
        for index in 0..<count {
            let made = NewThread.make {
                _ = photolibd_name_thread(name)
                // Each failure leaves the thread at the daemon's priority: slower for others, the same work.
                _ = try? systemCall("setpriority") { photolibd_thread_nice(nice) }
                _ = try? systemCall("ioprio_set") { photolibd_thread_io_last() }
                body(index)
            }
            switch made {
            case .success(let thread): started.append(thread)
            case .failure: inline.append(index)
            }
        }
        for index in inline { body(index) }
        for thread in started { pthread_join(thread, nil) }
    }

    /// The calling thread's I/O class and level (2 and 7: best effort, last), for checking that the lowering took.
    public static func ioPriorityOfThisThread() throws(SystemCallError) -> (ioClass: Int, level: Int) {
        let value = Int(try systemCall("ioprio_get") { photolibd_thread_io_priority() })
        return (value >> 13, value & 0x1FFF)
    }
}
