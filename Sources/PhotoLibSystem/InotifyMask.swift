import Glibc
public import PhotoLibCore

/// inotify event bits, as a typed option set (the C macros import as `Int32`).
public struct InotifyMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let attributes = InotifyMask(rawValue: UInt32(IN_ATTRIB))
    public static let closeWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
    public static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
    public static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
    public static let create = InotifyMask(rawValue: UInt32(IN_CREATE))
    public static let delete = InotifyMask(rawValue: UInt32(IN_DELETE))
    public static let deleteSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
    public static let moveSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
    public static let unmount = InotifyMask(rawValue: UInt32(IN_UNMOUNT))
    public static let queueOverflow = InotifyMask(rawValue: UInt32(IN_Q_OVERFLOW))
    public static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
    public static let onlyDirectory = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
    public static let excludeUnlinked = InotifyMask(rawValue: UInt32(IN_EXCL_UNLINK))
    public static let isDirectory = InotifyMask(rawValue: UInt32(bitPattern: IN_ISDIR))

    /// What the library watcher asks for on every directory.
    public static let libraryDirectory: InotifyMask = [
        .attributes, .closeWrite, .movedFrom, .movedTo, .create, .delete, .deleteSelf, .moveSelf,
        .onlyDirectory, .excludeUnlinked,
    ]
}

/// A watch descriptor: which watched directory an event is about.
public struct WatchDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// One inotify event, copied out of libinotifytools' static buffer.
public struct InotifyEvent: Sendable, Equatable {
    public let watch: WatchDescriptor
    public let mask: InotifyMask
    public let cookie: UInt32
    /// The entry name inside the watched directory; empty for events on the directory itself.
    public let name: [UInt8]
}

extension WatchTranslator.Raw {
    /// The kernel's event in the translator's terms.
    public init(_ event: InotifyEvent) {
        let pairs: [(InotifyMask, WatchTranslator.Flags)] = [
            (.attributes, .attributes), (.closeWrite, .closeWrite), (.movedFrom, .movedFrom), (.movedTo, .movedTo),
            (.create, .create), (.delete, .delete), (.deleteSelf, .deleteSelf), (.moveSelf, .moveSelf), (.unmount, .unmount),
            (.queueOverflow, .queueOverflow), (.ignored, .ignored), (.isDirectory, .isDirectory),
        ]
        var flags: WatchTranslator.Flags = []
        for (bit, flag) in pairs where event.mask.contains(bit) { flags.insert(flag) }
        self.init(watch: event.watch.rawValue, flags: flags, cookie: event.cookie, name: event.name)
    }
}
