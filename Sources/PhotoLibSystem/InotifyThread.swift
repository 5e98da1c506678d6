import Glibc
import Synchronization

/// An inotify instance of its own (`InotifySource.Kind.own`) read on a thread
/// of its own: the inboxes' watcher and the views' open watcher each run one,
/// and are handed every read's events together, in order.
public final class InotifyThread: Sendable {
    private let source: InotifySource
    private let wakeup: Wakeup
    private let stopping = Atomic<Bool>(false)

    /// - Throws: `SystemCallError` when the kernel refuses an instance (`fs.inotify.max_user_instances`) or an eventfd.
    public init() throws(SystemCallError) {
        source = try InotifySource(.own)
        wakeup = try Wakeup()
    }

    /// Watches an open directory; from any thread.
    public func addWatch(_ directory: FileDescriptor, mask: InotifyMask) throws(SystemCallError) -> WatchDescriptor {
        try source.addWatch(directory, mask: mask)
    }

    /// Stops watching; from any thread. The kernel then queues `ignored` for it.
    public func removeWatch(_ watch: WatchDescriptor) {
        source.removeWatch(watch)
    }

    /// Starts the thread, named `name` (at most 15 bytes are kept): `handle` gets each read's events, on it;
    /// `failed` each read that failed (to log; `handle` gets an overflow for it); `finished` runs there once `stop` is called.
    public func start(name: String, _ handle: @escaping @Sendable ([InotifyEvent]) -> Void,
                      failed: @escaping @Sendable (SystemCallError) -> Void,
                      finished: @escaping @Sendable () -> Void) throws(SystemCallError) {
        try DetachedThread.start(name: name) { [self] in
            while !stopping.load(ordering: .relaxed) {
                _ = source.wait(orWakeup: wakeup)
                var events: [InotifyEvent] = []
                while let event = source.next() { events.append(event) }
                source.takeReadFailures().forEach(failed)
                if !events.isEmpty { handle(events) }
            }
            finished()
        }
    }

    /// Ends the thread after the read under way; `finished` runs there.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wakeup.signal()
    }
}
