/// The stable public identifier of an asset.
///
/// Never a bare row number: a counter would tell an app how many assets the
/// library holds, which it must not learn. An asset's row number under the
/// library's keyed permutation (`AssetIDPermutation`, schema v24), or the
/// random ID an asset made before that keeps. 16 characters of lowercase
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

    /// A fresh random ID from two draws of `generator` (80 of their 128 bits).
    ///
    /// Each character takes 5 bits, and the alphabet has exactly 32 letters,
    /// so every ID is equally likely. One draw per character, as before, cost
    /// 16 `getrandom` calls per ID with the system generator: 1.6 million for
    /// a first start on 100,000 files.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> AssetID {
        let high: UInt64 = generator.next()
        let low: UInt64 = generator.next()
        return fromBits(high: high, low: low)
    }

    /// The ID spelling 60 bits of `high` and 20 of `low`: every 80-bit value one ID.
    public static func fromBits(high: UInt64, low: UInt64) -> AssetID {
        let text = String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<12 { buffer[index] = alphabet[Int(truncatingIfNeeded: high >> UInt64(index * 5)) & 31] }
            for index in 12..<length { buffer[index] = alphabet[Int(truncatingIfNeeded: low >> UInt64((index - 12) * 5)) & 31] }
            return length
        }
        return AssetID(validated: text)
    }

    /// An ID already known to have the right shape.
    private init(validated text: String) {
        rawValue = text
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
