/// The bytes of an ISO base media file (MP4, MOV, HEIF), read on demand: what
/// `IsoLocationPlan` walks. The daemon reads a file with `pread`; tests hand
/// it an array.
public protocol IsoMediaFile {
    var size: UInt64 { get }
    /// Exactly `count` bytes at `offset` (the plan never asks past the end).
    func read(at offset: UInt64, count: Int) throws(IsoMediaProblem) -> [UInt8]
}

/// Why an ISO base media file could not be walked, so its location can be neither found nor removed.
public enum IsoMediaProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A box runs past its parent or the file, or a field makes no sense.
    case malformed(String)
    /// A metadata box larger than photolibd reads into memory.
    case tooLarge(box: String, size: UInt64)
    /// A layout that is valid but that photolibd does not rewrite (an Exif item in several pieces, say).
    case unsupported(String)
    /// Reading failed (errno).
    case unreadable(errno: Int32)

    public var description: String {
        switch self {
        case .malformed(let what): "the file's boxes are malformed: \(what)"
        case .tooLarge(let box, let size): "its '\(box)' box is \(size) bytes, more than photolibd reads"
        case .unsupported(let what): "photolibd cannot rewrite it: \(what)"
        case .unreadable(let errno): "it cannot be read (errno \(errno))"
        }
    }
}

/// A file held in memory.
public struct IsoMediaBytes: IsoMediaFile {
    public var bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: UInt64 { UInt64(bytes.count) }
    public func read(at offset: UInt64, count: Int) throws(IsoMediaProblem) -> [UInt8] {
        guard offset + UInt64(count) <= size else { throw .malformed("read past the end") }
        return Array(bytes[Int(offset)..<Int(offset) + count])
    }
}
