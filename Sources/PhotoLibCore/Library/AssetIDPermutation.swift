/// Public asset IDs as a keyed permutation of the asset's row number (issue 50): a balanced Feistel
/// network on 80 bits, two halves of 40, whose rounds are SipHash-2-4 under a key of the library's.
///
/// What a random ID promised holds (docs/SECURITY.md): without the key, an ID says nothing of the row
/// it stands for, so not how many assets the library holds, and the next one cannot be guessed; two
/// rows never share an ID (a permutation), and a row number is never reused, so neither is an ID. What
/// it adds: an ID is computed, not drawn and checked against every other (no unique index on a random
/// column, no retry on a collision), and an ID finds its row by the inverse, with no index at all. An
/// ID that is no asset's (guessed, or from another library) decodes to a number past 2^63, refused by
/// `row(for:)`, or, once in 131,072, to one far past any row, which finds none.
///
/// Apps never see these: each sees its own IDs (`AppAssetIDs`, SipHash of this ID under its key).
public struct AssetIDPermutation: Sendable, Equatable {
    /// The key's two halves, little-endian (the key is 16 bytes, random, kept in the database).
    private let k0: UInt64
    private let k1: UInt64

    public static let keyLength = 16
    /// Rounds of the network: four make a strong pseudo-random permutation of a pseudo-random function
    /// (Luby and Rackoff); eight leave a margin, at 8 short hashes an ID.
    static let rounds: UInt64 = 8
    private static let halfBits: UInt64 = 40
    private static let halfMask: UInt64 = (1 << halfBits) - 1

    public init?(key: [UInt8]) {
        guard key.count == Self.keyLength else { return nil }
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        k0 = word(key[0..<8])
        k1 = word(key[8..<16])
    }

    /// A fresh random key.
    public static func randomKey<G: RandomNumberGenerator>(using generator: inout G) -> [UInt8] {
        let a: UInt64 = generator.next(), b: UInt64 = generator.next()
        return (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * UInt64($0))) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * UInt64($0))) }
    }

    /// The ID of the asset in row `row` (a row number is positive).
    public func id(forRow row: Int64) -> AssetID {
        precondition(row > 0, "row numbers start at 1")
        var (left, right) = (UInt64(row) >> Self.halfBits, UInt64(row) & Self.halfMask)
        for round in 0..<Self.rounds {
            (left, right) = (right, left ^ f(round, right))
        }
        return AssetID(halves: (left, right))
    }

    /// The row an ID stands for; nil when it is no row's (its inverse is not a positive 63-bit number).
    public func row(for id: AssetID) -> Int64? {
        var (left, right) = id.halves
        for round in (0..<Self.rounds).reversed() {
            (left, right) = (right ^ f(round, left), left)
        }
        let value = left << Self.halfBits | right
        guard left >> (63 - Self.halfBits) == 0, value > 0 else { return nil }
        return Int64(value)
    }

    /// The round function: 40 bits of SipHash of the round's number and the half.
    private func f(_ round: UInt64, _ half: UInt64) -> UInt64 {
        SipHash.hash64(k0: k0, k1: k1, word: round << Self.halfBits | half) & Self.halfMask
    }
}

extension AssetID {
    /// The ID spelling an 80-bit value given as two 40-bit halves (`fromBits`' two words, packed).
    init(halves: (high: UInt64, low: UInt64)) {
        self = AssetID.fromBits(high: halves.low | (halves.high & 0xF_FFFF) << 40, low: halves.high >> 20)
    }

    /// The 80-bit value the ID spells, as two 40-bit halves: the inverse of `init(halves:)`.
    var halves: (high: UInt64, low: UInt64) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in rawValue.utf8.enumerated() {
            let digit = UInt64(AssetID.digitValue[Int(byte)])
            if index < 12 { high |= digit << UInt64(index * 5) } else { low |= digit << UInt64((index - 12) * 5) }
        }
        return ((high >> 40) | (low & 0xF_FFFF) << 20, high & 0xFF_FFFF_FFFF)
    }

    /// Each letter's value in the alphabet (0 for what is not in it: an `AssetID` holds none).
    private static let digitValue: [UInt8] = (0..<256).map { byte in UInt8(alphabet.firstIndex(of: UInt8(byte)) ?? 0) }
}
