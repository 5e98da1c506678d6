/// A four-byte box type of an ISO base media file (MP4, MOV, HEIF): `moov`, `©xyz`.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public var bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        bytes = (a, b, c, d)
    }

    /// From four ASCII characters.
    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4)
        let p = text.utf8Start
        self.init(p[0], p[1], p[2], p[3])
    }

    public init(_ slice: ArraySlice<UInt8>) {
        let i = slice.startIndex
        self.init(slice[i], slice[i + 1], slice[i + 2], slice[i + 3])
    }

    public var array: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3] }

    public static func == (a: FourCC, b: FourCC) -> Bool { a.array == b.array }
    public func hash(into hasher: inout Hasher) { hasher.combine(array) }

    public var description: String {
        String(decoding: array.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}
