import CInotifyTools
import CSystemShims
import PhotoLibCore
import Glibc

/// An inotify instance: the one wrapper every watcher of photolibd reads through.
///
/// Two kinds (`Kind`). The library's is libinotifytools' instance, which keeps
/// all state in globals: there is one per process, and every read must come
/// from the one thread that owns it. Its own path tables and recursive
/// watching are not used: they lose files in new directories and mis-track
/// renamed trees (see FIELD-NOTES). The inboxes and the views are a handful of
/// directories watched from other threads, so each of their watchers gets an
/// instance of its own (`own`), read with plain `read(2)`, so a burst in the
/// library never delays, or overflows, theirs.
///
/// Either way, watches are added on the instance's descriptor directly, by
/// `/proc/self/fd/N` of an already opened directory, so the watched directory
/// is exactly the one the caller opened with `O_NOFOLLOW`, never a path that
/// could be swapped meanwhile. Adding and removing watches is safe from any
/// thread; `next` and `wait` belong to the one thread that reads.
public final class InotifySource: @unchecked Sendable {
    // @unchecked: `descriptor` and `kind` never change, and the kernel's watch calls are
    // safe from any thread; `pending` is touched only by the reading thread (`next`).

    /// Whose instance it is.
    public enum Kind: Sendable {
        /// The process's libinotifytools instance.
        case libinotifytools
        /// An instance of the caller's own, non-blocking, read with `read(2)`.
        case own
    }

    private let descriptor: Int32
    private let kind: Kind
    /// Events of an own instance read from the kernel and not yet handed out, last first.
    private var pending: [InotifyEvent] = []

    /// Initialises libinotifytools (`inotifytools_initialize`), or makes an instance of the caller's own (`inotify_init1`).
    ///
    /// - Throws: `SystemCallError` when the kernel refuses a new instance
    ///   (`fs.inotify.max_user_instances`).
    public init(_ kind: Kind = .libinotifytools) throws(SystemCallError) {
        self.kind = kind
        if kind == .own {
            descriptor = try systemCall("inotify_init1") { photolibd_inotify_init() }
            return
        }
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

    deinit {
        // libinotifytools' instance lives as long as the process.
        if kind == .own { Glibc.close(descriptor) }
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

    /// The next event, waiting at most `timeoutSeconds` (0: do not wait; an own instance never waits here: use `wait`).
    ///
    /// libinotifytools is asked for one event per call: it busy-waits when asked
    /// for more (FIELD-NOTES). The corresponding C function is `inotifytools_next_events`.
    public func next(timeoutSeconds: Int) -> InotifyEvent? {
        if kind == .own {
            if pending.isEmpty { pending = readAvailable().reversed() }
            return pending.popLast()
        }
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

    /// Every event an own instance has queued now (its descriptor is non-blocking).
    private func readAvailable() -> [InotifyEvent] {
        let size = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var events: [InotifyEvent] = []
        while true {
            let count: Int
            do {
                count = try systemCall("read") { Glibc.read(descriptor, buffer, size) }
            } catch {
                // EAGAIN: nothing more queued. Anything else cannot be read past; the
                // events so far are kept, and the watcher's next sweep finds what was missed.
                return events
            }
            if count == 0 { return events }
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = buffer.load(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                events.append(InotifyEvent(watch: WatchDescriptor(rawValue: wd), mask: InotifyMask(rawValue: mask), cookie: cookie,
                                           name: Array(nameBytes.prefix { $0 != 0 })))
                offset += 16 + length
            }
        }
    }

    /// Blocks until the instance has events to read, `wakeup` is signalled, or
    /// `timeoutMilliseconds` pass (-1: no limit). Returns whether `wakeup` was signalled, and clears it.
    ///
    /// libinotifytools can only wait in whole seconds on its own descriptor,
    /// so the watcher waits here and then reads with `next(timeoutSeconds: 0)`.
    /// Events already buffered (inside libinotifytools, or read by `next`) do not
    /// make the descriptor readable: read until `next` returns nil before waiting.
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
