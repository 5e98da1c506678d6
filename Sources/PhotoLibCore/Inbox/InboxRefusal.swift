/// Why a file in an app's inbox was not taken into the library.
///
/// Every reason is worded here, once: the app reads it in its `import` event
/// (`reason`, a sentence saying what to do, and `code`, stable for programs),
/// and the file is left in the inbox's `rejected/` directory.
public enum InboxRefusal: Error, Sendable, Equatable {
    /// The app may not add photos now (its status for both access levels).
    case notAllowed
    case symlink
    case notRegular
    /// A hard link to a file elsewhere: its other names would still reach it.
    case hardLinked(count: UInt64)
    /// Hidden, temporary, or without a photo or video extension.
    case notAnAssetName
    /// An extension no signature vouches for (configured beyond the defaults).
    case uncheckableExtension(String)
    case tooLarge(size: Int64, limit: Int64)
    case dailyFiles(limit: Int)
    case dailyBytes(size: Int64, used: Int64, limit: Int64)
    /// The content is not the format the extension names (`found` nil: no known format at all).
    case contentMismatch(extension: String, found: MediaSignature?)
    /// The daemon (the library's owner) cannot read it.
    case unreadable(errno: Int32)
    /// It changed size while it was copied: still being written.
    case changedWhileCopied

    /// A stable code for programs.
    public var code: String {
        switch self {
        case .notAllowed: "notAllowed"
        case .symlink: "symlink"
        case .notRegular: "notRegularFile"
        case .hardLinked: "hardLinked"
        case .notAnAssetName: "notAnAssetName"
        case .uncheckableExtension: "uncheckableExtension"
        case .tooLarge: "tooLarge"
        case .dailyFiles: "dailyFileQuota"
        case .dailyBytes: "dailyByteQuota"
        case .contentMismatch: "contentMismatch"
        case .unreadable: "unreadable"
        case .changedWhileCopied: "changedWhileCopied"
        }
    }

    /// One sentence: what was wrong, and what the app can do.
    public var reason: String {
        switch self {
        case .notAllowed:
            "This app may not add photos: ask for access with requestAuthorization (add-only or read-write) first."
        case .symlink:
            "The file is a symbolic link; write the photo itself into the inbox."
        case .notRegular:
            "This is not a regular file (a FIFO, socket, device or directory); write the photo itself into the inbox."
        case .hardLinked(let count):
            "The file has \(count) hard links; write a copy into the inbox rather than a link to a file kept elsewhere."
        case .notAnAssetName:
            "The name has no photo or video extension (or is hidden or temporary); name it like IMG_0001.jpg."
        case .uncheckableExtension(let ext):
            "photolibd cannot check the content of .\(ext) files, so it does not take them from an inbox."
        case .tooLarge(let size, let limit):
            "The file is \(size) bytes, over the inbox limit of \(limit) bytes per file."
        case .dailyFiles(let limit):
            "This app has added \(limit) files in the last 24 hours, its limit; try again later."
        case .dailyBytes(let size, let used, let limit):
            "Adding \(size) bytes would take this app past its limit of \(limit) bytes in 24 hours (\(used) used); try again later."
        case .contentMismatch(let ext, let found):
            if let found {
                "The content is \(found.rawValue), not what .\(ext) names; give the file its true extension."
            } else {
                "The content is not a known image or video format, whatever its .\(ext) extension says."
            }
        case .unreadable(let errno):
            "The library's owner cannot read the file (errno \(errno)); create it readable by the owner (mode 0644)."
        case .changedWhileCopied:
            "The file changed while it was being copied; write it under a hidden name and rename it into the inbox when complete."
        }
    }
}
