/// The stable public identifier of an asset.
///
/// Random, not a row number: a counter would tell an app how many assets the
/// library holds, which it must not learn. 16 characters of lowercase
/// Crockford base32 (80 bits), so IDs are easy to read and type.
public struct AssetID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String

    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    public static let length = 16
    private static let isAlphabet: [Bool] = (0..<256).map { alphabet.contains(UInt8($0)) }

    /// Validates a user-supplied ID; `nil` unless it has the exact shape of an asset ID.
    public init?(_ text: String) {
        var text = text
        let valid = text.withUTF8 { bytes in
            bytes.count == Self.length && bytes.allSatisfy { Self.isAlphabet[Int($0)] }
        }
        guard valid else { return nil }
        rawValue = text
    }

    /// A fresh random ID drawn from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> AssetID {
        var chars: [UInt8] = []
        chars.reserveCapacity(length)
        for _ in 0..<length {
            chars.append(alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))])
        }
        return AssetID(String(decoding: chars, as: UTF8.self))!
    }

    public var description: String { rawValue }

    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = AssetID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an asset ID"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
