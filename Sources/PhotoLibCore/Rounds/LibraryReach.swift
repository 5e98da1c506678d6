/// Whether a network library's server answers, as verification rounds and the library's thread
/// show it: the pure half of "the library is unavailable" (status, doctor, the page, a `library`
/// event). Only a library on a remote filesystem is judged: on a local disk an `EIO` is a failing
/// disk, which the unreadable paths already name.
///
/// The server is taken for away when a round's look at the library's root fails as a connection does
/// (`ENOTCONN`, `EIO`, `ETIMEDOUT`, `ESTALE`, …: `FileSystemFailure.meansServerAway`), or every look
/// that round failed so (a network filesystem answers some from its cache for a while), or when one look at the library has waited `heldLimit` (a hung mount answers nothing, not even an
/// error). It is back when a round ends with every look answered. While it is away nothing is taken
/// for gone: the index, the selections and the views stay as they were.
public struct LibraryReach: Sendable, Equatable {
    /// How long one look at the library may wait before the server is taken for away: longer than a
    /// NAS waking its disks (a few seconds), short enough that a person asking is told.
    public static let heldLimitMilliseconds: Int64 = 15_000

    /// The outage under way, if any.
    public private(set) var outage: LibraryOutage?

    public init() {}

    /// What changed, for the log, the board and the `library` event.
    public enum Transition: Sendable, Equatable {
        case lost(LibraryOutage)
        /// Back after `outage`, at `at` (seconds since the epoch).
        case returned(LibraryOutage, at: Int64)
    }

    /// A round ended. `root` is what its look at the library's root directory failed with, if it
    /// failed; `answered` counts its looks the server answered (found, gone, or refused by a mode);
    /// `serverAway` is its first failure that means the connection is down, if any. A single file's
    /// `EIO` in a round where the rest answered is that file's (the unreadable paths name it).
    public mutating func roundEnded(root: FileSystemFailure?, answered: Int, serverAway: FileSystemFailure?, at now: Int64) -> Transition? {
        if let root, root.meansServerAway {
            return lose(LibraryOutage(since: now, reason: "the library's server does not answer (\(root.call): \(FileSystemFailure.name(of: root.errno)))"))
        }
        if let serverAway, answered == 0 {
            return lose(LibraryOutage(since: now, reason: "the library's server does not answer (\(serverAway.call): \(FileSystemFailure.name(of: serverAway.errno)))"))
        }
        guard root == nil, serverAway == nil, let outage else { return nil }
        self.outage = nil
        return .returned(outage, at: now)
    }

    /// The library's thread has been waiting in one look for `milliseconds` (nil: it is not busy).
    public mutating func held(forMilliseconds milliseconds: Int64?, at now: Int64) -> Transition? {
        guard let milliseconds, milliseconds >= Self.heldLimitMilliseconds else { return nil }
        return lose(LibraryOutage(since: now - milliseconds / 1000,
                                  reason: "the library's server has not answered for \(milliseconds / 1000) s (a call into its mount is still waiting)"))
    }

    private mutating func lose(_ outage: LibraryOutage) -> Transition? {
        guard self.outage == nil else { return nil }  // already away: the first reason and time stand
        self.outage = outage
        return .lost(outage)
    }
}

/// A network library's server away: since when (seconds since the epoch) and why, in words.
public struct LibraryOutage: Sendable, Equatable {
    public var since: Int64
    public var reason: String

    public init(since: Int64, reason: String) {
        self.since = since
        self.reason = reason
    }
}

extension FileSystemFailure {
    /// Whether the failure is what a network filesystem answers when its server is away or its
    /// connection down, rather than a file's own state: `EIO`, `ENXIO`, `ENOLINK`, `ENETDOWN`,
    /// `ENETUNREACH`, `ECONNABORTED`, `ECONNRESET`, `ESHUTDOWN`, `ENOTCONN`, `ETIMEDOUT`, `ECONNREFUSED`,
    /// `EHOSTDOWN`, `EHOSTUNREACH`, `ESTALE`, `EREMOTEIO`.
    public var meansServerAway: Bool { Self.serverAway[errno] != nil }

    /// A Linux errno's name, for the words of an outage.
    public static func name(of errno: Int32) -> String { serverAway[errno] ?? "errno \(errno)" }

    // Linux's numbers (the core imports no libc).
    private static let serverAway: [Int32: String] = [
        5: "EIO", 6: "ENXIO", 67: "ENOLINK", 100: "ENETDOWN", 101: "ENETUNREACH", 103: "ECONNABORTED", 104: "ECONNRESET",
        108: "ESHUTDOWN", 107: "ENOTCONN", 110: "ETIMEDOUT", 111: "ECONNREFUSED", 112: "EHOSTDOWN", 113: "EHOSTUNREACH",
        116: "ESTALE", 121: "EREMOTEIO",
    ]
}
