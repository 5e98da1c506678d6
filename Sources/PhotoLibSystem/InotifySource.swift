import CSystemShims
import PhotoLibCore
import Glibc

/// An inotify instance: the one wrapper every watcher of photolibd reads through.
///
/// Two kinds (`Kind`). The library's is libinotifytools' instance, made and
/// read by `photolibd-inotify` in a process of its own (`InotifyHelper`: the
/// daemon links no GPL-2.0-only code) and read here from its socket. Its own
/// path tables and recursive watching are not used: they lose files in new
/// directories and mis-track renamed trees (see FIELD-NOTES). The inboxes and
/// the views are a handful of directories watched from other threads, so each
/// of their watchers gets an instance of its own (`own`), read with plain
/// `read(2)`, so a burst in the library never delays, or overflows, theirs.
///
/// Either way, watches are added on the instance's descriptor directly, by
/// `/proc/self/fd/N` of an already opened directory, so the watched directory
/// is exactly the one the caller opened with `O_NOFOLLOW`, never a path that
/// could be swapped meanwhile. On an own instance, adding and removing watches
/// is safe from any thread; on the helper's, every call comes from the one
/// thread that reads, since a helper that ends is replaced (with a new instance)
/// by `next`. `next` and `wait` belong to the one thread that reads.
public final class InotifySource: @unchecked Sendable {
    // @unchecked: an own instance's `descriptor` never changes and the kernel's watch calls are
    // safe from any thread; the helper's state, and `pending`, are touched only by the reading thread.

    /// Whose instance it is.
    public enum Kind: Sendable {
        /// libinotifytools' instance, made and read by `photolibd-inotify` at `executable`.
        case helper(executable: String)
        /// An instance of the caller's own, non-blocking, read with `read(2)`.
        case own
    }

    /// How the helper ended, and whether another took its place.
    public struct HelperRestart: Sendable {
        /// How the one that ended did (`nil`: none was running, as after a start that failed or a wait).
        public let ending: HelperProcess.Ending?
        /// Why photolibd ended it, when it did (a corrupt stream): its `ending` is then photolibd's SIGKILL.
        public var cause: String?
        /// How long the one that ended had run, in seconds.
        public let lifetime: Double?
        /// Why no other could be started (`nil`: one was, or it waits `retryIn`).
        public let failure: SystemCallError?
        /// Seconds until the next start (`nil`: one runs now, with a new instance, and every watch must be added again).
        public let retryIn: Double?
        /// Helpers that ended, or failed to start, one after another soon after their start.
        public let quickEnds: Int

        /// True when a new helper runs now: the caller rebuilds its watches and rescans.
        public var replaced: Bool { failure == nil && retryIn == nil }
    }

    private let kind: Kind
    private var descriptor: Int32
    private var helper: InotifyHelper?
    private var restarts: [HelperRestart] = []
    private var readFailures: [SystemCallError] = []
    /// When the next helper may be started (monotonic seconds), after one that ended soon after its start or failed to.
    private var nextStart = 0.0
    /// When the running helper was started (monotonic seconds).
    private var helperStarted = InotifySource.monotonicSeconds()
    private var backoff = RestartBackoff()
    /// Events read and not yet handed out, last first.
    private var pending: [InotifyEvent] = []
    private var records = InotifyRecords()

    /// Starts `photolibd-inotify` and takes its instance (`helper`), or makes an instance of the caller's own (`own`).
    ///
    /// - Throws: `SystemCallError` when the kernel refuses a new instance
    ///   (`fs.inotify.max_user_instances`), or the helper cannot be started.
    public init(_ kind: Kind) throws(SystemCallError) {
        self.kind = kind
        switch kind {
        case .own:
            descriptor = try systemCall("inotify_init1") { photolibd_inotify_init() }
        case .helper(let executable):
            let helper = try InotifyHelper(executable: executable)
            self.helper = helper
            descriptor = helper.instance.rawValue
        }
    }

    deinit {
        if let helper { helper.end() } else if case .own = kind { Glibc.close(descriptor) }
    }

    /// Watches an open directory. Adding the same directory twice returns the same descriptor.
    ///
    /// The corresponding C function is `inotify_add_watch`.
    public func addWatch(_ directory: FileDescriptor, mask: InotifyMask = .libraryDirectory) throws(SystemCallError) -> WatchDescriptor {
        guard descriptor >= 0 else { throw SystemCallError("inotify_add_watch (photolibd-inotify is not running)", errno: ESRCH) }
        let wd = try systemCall("inotify_add_watch") { inotify_add_watch(descriptor, directory.procPath, mask.rawValue) }
        return WatchDescriptor(rawValue: wd)
    }

    /// Stops watching; the kernel then queues `IN_IGNORED` for it.
    public func removeWatch(_ watch: WatchDescriptor) {
        guard descriptor >= 0 else { return }
        // EINVAL: the kernel removed it already (its directory went; IN_IGNORED says so), or it
        // belonged to a helper's instance that has been replaced. Either way it is gone.
        _ = try? systemCall("inotify_rm_watch") { inotify_rm_watch(descriptor, watch.rawValue) }
    }

    /// The next event read, without waiting (use `wait`).
    ///
    /// When the helper has ended, it is replaced at once, and the new instance
    /// begins with `IN_Q_OVERFLOW`: its watches are gone and events may have
    /// been lost, exactly as after an overflow, so the caller rebuilds its
    /// watches and rescans. `takeHelperRestarts` says what happened.
    public func next() -> InotifyEvent? {
        if pending.isEmpty {
            switch kind {
            case .own: pending = readOwn().reversed()
            case .helper(let executable): pending = readHelper(executable).reversed()
            }
        }
        return pending.popLast()
    }

    /// Reads and waits that failed since the last call, oldest first, for the caller to log.
    ///
    /// Each was followed by a synthetic `IN_Q_OVERFLOW` from `next`: what it could
    /// not read may have been lost, so the caller rescans, as after an overflow.
    public func takeReadFailures() -> [SystemCallError] {
        defer { readFailures = [] }
        return readFailures
    }

    /// Remembers a failed read or wait and has `next` say overflow: an error is never taken for "nothing happened".
    private func failed(_ error: SystemCallError) -> InotifyEvent {
        readFailures.append(error)
        return Self.overflow
    }

    private static let overflow = InotifyEvent(watch: WatchDescriptor(rawValue: -1), mask: .queueOverflow, cookie: 0, name: [])

    /// What happened to the helper since the last call, oldest first.
    public func takeHelperRestarts() -> [HelperRestart] {
        defer { restarts = [] }
        return restarts
    }

    private func readHelper(_ executable: String) -> [InotifyEvent] {
        let now = Self.monotonicSeconds()
        if let helper {
            if let events = helper.readAvailable() { return events }
            let ending = helper.end()
            let cause = helper.streamProblem
            if let failure = helper.reapFailure { readFailures.append(failure) }
            self.helper = nil
            descriptor = -1
            let lifetime = now - helperStarted
            let delay = backoff.ended(after: lifetime)
            guard delay == 0 else {
                // Ended soon after its start: the next one waits, so a helper that cannot live does not
                // cost a rebuild of every watch and a rescan, again and again.
                nextStart = now + delay
                restarts.append(HelperRestart(ending: ending, cause: cause, lifetime: lifetime, failure: nil, retryIn: delay, quickEnds: backoff.quickEnds))
                return []
            }
            return startHelper(executable, after: ending, cause: cause, lifetime: lifetime)
        }
        guard now >= nextStart else { return [] }
        return startHelper(executable, after: nil, cause: nil, lifetime: nil)
    }

    /// Starts a helper; its instance begins with an overflow (every watch is to be added again).
    private func startHelper(_ executable: String, after ending: HelperProcess.Ending?, cause: String?, lifetime: Double?) -> [InotifyEvent] {
        do {
            let started = try InotifyHelper(executable: executable)
            helper = started
            descriptor = started.instance.rawValue
            helperStarted = Self.monotonicSeconds()
            restarts.append(HelperRestart(ending: ending, cause: cause, lifetime: lifetime, failure: nil, retryIn: nil, quickEnds: backoff.quickEnds))
            return [Self.overflow]
        } catch {
            let delay = backoff.failedToStart()
            nextStart = Self.monotonicSeconds() + delay
            restarts.append(HelperRestart(ending: ending, cause: cause, lifetime: lifetime, failure: error, retryIn: delay, quickEnds: backoff.quickEnds))
            return []
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Every event an own instance has queued now (its descriptor is non-blocking).
    private func readOwn() -> [InotifyEvent] {
        let size = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var events: [InotifyEvent] = []
        while true {
            let count: Int
            do {
                count = try systemCall("read") { Glibc.read(descriptor, buffer, size) }
            } catch where error.errno == EAGAIN {
                return events  // nothing more queued
            } catch {
                // Cannot be read past: the events so far are kept, and the overflow has the caller rescan.
                return events + [failed(error)]
            }
            if count == 0 { return events }
            do {
                // The kernel returns whole records only: nothing is ever left over.
                events += try records.append(UnsafeRawBufferPointer(start: buffer, count: count))
            } catch {
                records = InotifyRecords()
                return events + [failed(SystemCallError("read (inotify: a record the kernel does not write)", errno: EPROTO))]
            }
        }
    }

    /// Blocks until the instance has events to read, `wakeup` is signalled, or
    /// `timeoutMilliseconds` pass (-1: no limit). Returns whether `wakeup` was signalled, and clears it.
    ///
    /// Events already read by `next` do not make the descriptor readable: read
    /// until `next` returns nil before waiting. While no helper runs (one could
    /// not be started, or the next waits its turn), this waits at most a second,
    /// after which `next` looks again.
    public func wait(orWakeup wakeup: Wakeup, timeoutMilliseconds: Int32 = -1) -> Bool {
        let readable: Int32
        var timeout = timeoutMilliseconds
        switch kind {
        case .own:
            readable = descriptor
        case .helper:
            readable = helper?.channel.rawValue ?? -1
            if helper == nil, timeout < 0 || timeout > 1000 { timeout = 1000 }
        }
        var descriptors = [pollfd(fd: readable, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        do {
            _ = try systemCall("poll") { poll(&descriptors, 2, timeout) }
        } catch {
            // Not "nothing happened": the overflow has the caller rescan (and log the failure),
            // which also keeps a poll that keeps failing from spinning unseen.
            pending.insert(failed(error), at: 0)
            return false
        }
        guard descriptors[1].revents & Int16(POLLIN) != 0 else { return false }
        wakeup.drain()
        return true
    }

    /// The process ID of the helper now reading libinotifytools' instance, if one runs.
    public var helperPID: Int32? { helper?.pid }
}
