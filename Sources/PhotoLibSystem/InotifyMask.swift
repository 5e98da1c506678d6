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
    public static let open = InotifyMask(rawValue: UInt32(IN_OPEN))

    /// What the library watcher asks for on every directory.
    public static let libraryDirectory: InotifyMask = [
        .attributes, .closeWrite, .movedFrom, .movedTo, .create, .delete, .deleteSelf, .moveSelf,
        .onlyDirectory, .excludeUnlinked,
    ]

    /// What the access report asks for on every directory of a view: opens, and directories coming and going.
    public static let viewDirectory: InotifyMask = [.open, .create, .movedTo, .movedFrom, .onlyDirectory, .excludeUnlinked]
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
        self.init(watch: event.watch.rawValue, mask: event.mask, cookie: event.cookie, name: event.name)
    }

    /// An event by its parts, in the translator's terms.
    public init(watch: Int32, mask: InotifyMask, cookie: UInt32 = 0, name: [UInt8]) {
        let pairs: [(InotifyMask, WatchTranslator.Flags)] = [
            (.attributes, .attributes), (.closeWrite, .closeWrite), (.movedFrom, .movedFrom), (.movedTo, .movedTo),
            (.create, .create), (.delete, .delete), (.deleteSelf, .deleteSelf), (.moveSelf, .moveSelf), (.unmount, .unmount),
            (.queueOverflow, .queueOverflow), (.ignored, .ignored), (.isDirectory, .isDirectory), (.open, .open),
        ]
        var flags: WatchTranslator.Flags = []
        for (bit, flag) in pairs where mask.contains(bit) { flags.insert(flag) }
        self.init(watch: watch, flags: flags, cookie: cookie, name: name)
    }
}
