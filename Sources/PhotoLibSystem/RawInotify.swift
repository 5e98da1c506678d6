import CSystemShims
import Glibc

/// An inotify instance of its own, read directly, for the apps' inboxes.
///
/// libinotifytools keeps one instance per process in globals, owned by the
/// library watcher's thread; the inboxes are a handful of flat directories
/// watched from another thread, so they get a second kernel instance read
/// with plain `read(2)`.
public final class RawInotify: @unchecked Sendable {
    // @unchecked: the descriptor is immutable; inotify_add_watch and read are safe from any thread.
    public let descriptor: Int32

    /// One event: the watch, what happened, and the entry's name (empty for the directory itself).
    public struct Event: Sendable {
        public let watch: Int32
        public let mask: UInt32
        public let name: [UInt8]
    }

    public init() throws(SystemCallError) {
        descriptor = try systemCall("inotify_init1") { photolibd_inotify_init() }
    }

    deinit { Glibc.close(descriptor) }

    /// Watches an open directory (by `/proc/self/fd/N`, so the inode watched is the one opened).
    public func addWatch(_ directory: FileDescriptor, mask: UInt32) throws(SystemCallError) -> Int32 {
        try systemCall("inotify_add_watch") { inotify_add_watch(descriptor, directory.procPath, mask) }
    }

    public func removeWatch(_ watch: Int32) {
        // EINVAL: the kernel removed it already (its directory went; IN_IGNORED says so). Either way it is gone.
        _ = try? systemCall("inotify_rm_watch") { inotify_rm_watch(descriptor, watch) }
    }

    /// Waits until events arrive or `wakeup` is signalled; returns the events read (none after a wakeup).
    public func wait(orWakeup wakeup: Wakeup) -> [Event] {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        guard (try? systemCall("poll", { poll(&descriptors, 2, -1) })) != nil else { return [] }
        if descriptors[1].revents & Int16(POLLIN) != 0 { wakeup.drain() }
        return readAvailable()
    }

    /// Every event queued now (the descriptor is non-blocking).
    public func readAvailable() -> [Event] {
        let size = 64 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        var events: [Event] = []
        while true {
            let count: Int
            do {
                count = try systemCall("read") { Glibc.read(descriptor, buffer, size) }
            } catch {
                // EAGAIN: nothing more queued. Anything else cannot be read past; the
                // events so far are kept, and the next sweep finds what was missed.
                return events
            }
            if count == 0 { return events }
            var offset = 0
            while offset + 16 <= count {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                let name = Array(nameBytes.prefix { $0 != 0 })
                events.append(Event(watch: wd, mask: mask, name: name))
                offset += 16 + length
            }
        }
    }
}
