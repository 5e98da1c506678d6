import CInotifyTools
import PhotoLibCore
import Glibc

/// The process's inotify instance, read through libinotifytools.
///
/// libinotifytools keeps all state in globals: there is one instance per
/// process, and every call must come from the one thread that owns this
/// object. Its own path tables and recursive watching are not used: they lose
/// files in new directories and mis-track renamed trees (see FIELD-NOTES).
/// Watches are added on the instance's descriptor directly, by
/// `/proc/self/fd/N` of an already opened directory, so the watched directory
/// is exactly the one the caller opened with `O_NOFOLLOW`, never a path that
/// could be swapped meanwhile.
public final class InotifySource {
    private let descriptor: Int32

    /// Initialises libinotifytools. The corresponding C function is `inotifytools_initialize`.
    ///
    /// - Throws: `SystemCallError` when the kernel refuses a new instance
    ///   (`fs.inotify.max_user_instances`).
    public init() throws(SystemCallError) {
        // libinotifytools never exposes its descriptor: find the inotify
        // instance that initialisation added to this process's descriptors.
        let before = Self.inotifyDescriptors()
        guard inotifytools_initialize() == 1 else {
            throw SystemCallError("inotifytools_initialize", errno: Int32(inotifytools_error()))
        }
        let added = Self.inotifyDescriptors().subtracting(before)
        guard added.count == 1, let fd = added.first else {
            throw SystemCallError("inotifytools_initialize (locating its descriptor)", errno: EBADF)
        }
        descriptor = fd
    }

    /// Descriptors of this process that are inotify instances.
    private static func inotifyDescriptors() -> Set<Int32> {
        guard let directory = try? Directory.open(path: "/proc/self/fd"), let entries = try? Directory.list(directory) else { return [] }
        defer { directory.close() }
        var out: Set<Int32> = []
        for entry in entries {
            if let fd = Int32(String(decoding: entry.name.bytes, as: UTF8.self)), fd != directory.rawValue, isInotify(fd) {
                out.insert(fd)
            }
        }
        return out
    }

    private static func isInotify(_ fd: Int32) -> Bool {
        var buffer = [CChar](repeating: 0, count: 64)
        // A descriptor that closed between listing and reading is no inotify instance of ours.
        guard let count = try? systemCall("readlink /proc/self/fd/\(fd)", { readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1) }),
              count > 0 else { return false }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:inotify"
    }

    /// Watches an open directory. Adding the same directory twice returns the same descriptor.
    ///
    /// The corresponding C function is `inotify_add_watch`.
    public func addWatch(_ directory: FileDescriptor, mask: InotifyMask = .libraryDirectory) throws(SystemCallError) -> WatchDescriptor {
        let wd = try systemCall("inotify_add_watch") { inotify_add_watch(descriptor, directory.procPath, mask.rawValue) }
        return WatchDescriptor(rawValue: wd)
    }

    /// Stops watching; the kernel then queues `IN_IGNORED` for it.
    public func removeWatch(_ watch: WatchDescriptor) {
        // EINVAL: the kernel removed it already (its directory went; IN_IGNORED says so). Either way it is gone.
        _ = try? systemCall("inotify_rm_watch") { inotify_rm_watch(descriptor, watch.rawValue) }
    }

    /// The next event, waiting at most `timeoutSeconds` (0: do not wait).
    ///
    /// Reads one event per call: libinotifytools busy-waits when asked for
    /// more (FIELD-NOTES). The corresponding C function is `inotifytools_next_events`.
    public func next(timeoutSeconds: Int) -> InotifyEvent? {
        guard let raw = inotifytools_next_events(timeoutSeconds, 1) else { return nil }
        let event = raw.pointee
        var name: [UInt8] = []
        if event.len > 0 {
            let cName = photolibd_inotify_event_name(raw)!
            name = Array(UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName)))
        }
        return InotifyEvent(
            watch: WatchDescriptor(rawValue: event.wd),
            mask: InotifyMask(rawValue: event.mask),
            cookie: event.cookie,
            name: name
        )
    }

    /// Blocks until the instance has events to read, `wakeup` is signalled, or
    /// `timeoutMilliseconds` pass (-1: no limit). Returns whether `wakeup` was signalled, and clears it.
    ///
    /// libinotifytools can only wait in whole seconds on its own descriptor,
    /// so the watcher waits here and then reads with `next(timeoutSeconds: 0)`.
    /// Events already buffered inside libinotifytools do not make the
    /// descriptor readable: read until `next` returns nil before waiting.
    public func wait(orWakeup wakeup: Wakeup, timeoutMilliseconds: Int32 = -1) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        guard (try? systemCall("poll", { poll(&descriptors, 2, timeoutMilliseconds) })) != nil else { return false }
        guard descriptors[1].revents & Int16(POLLIN) != 0 else { return false }
        wakeup.drain()
        return true
    }

    /// `fs.inotify.max_user_watches`, as libinotifytools reads it.
    public static var maxUserWatches: Int { Int(inotifytools_get_max_user_watches()) }
}
