@testable import PhotoLibCore
import Testing

/// Public asset IDs as a keyed permutation of row numbers: a bijection that its inverse undoes, different
/// under each key, and giving nothing of the row away in the ID's order.
@Suite("Asset IDs from row numbers")
struct AssetIDPermutationTests {
    static let key = Array(UInt8(0)..<16)

    @Test("SipHash-2-4-64 of one word: the reference implementation's vector for the 8 bytes 00..07 under the key 00..0f")
    func hash64() {
        #expect(SipHash.hash64(k0: 0x0706050403020100, k1: 0x0f0e0d0c0b0a0908, word: 0x0706050403020100) == 0x93f5f5799a932462)
    }

    @Test("an ID spells its 80 bits and gives them back, for any ID")
    func halves() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let id = AssetID.random(using: &generator)
            #expect(AssetID(halves: id.halves) == id)
            let halves = id.halves
            #expect(halves.high < 1 << 40 && halves.low < 1 << 40)
        }
        #expect(AssetID(halves: (0, 0)).rawValue == "0000000000000000")
        #expect(AssetID(halves: ((1 << 40) - 1, (1 << 40) - 1)).rawValue == "zzzzzzzzzzzzzzzz")
    }

    @Test("every row has its own ID and the inverse gives the row back; the same key gives the same IDs, another key others")
    func bijection() throws {
        let permutation = try #require(AssetIDPermutation(key: Self.key))
        let rows: [Int64] = Array(1...20_000) + [Int64(1) << 40, Int64.max - 1, Int64.max]
        let ids = rows.map(permutation.id(forRow:))
        #expect(Set(ids).count == rows.count, "no two rows share an ID")
        #expect(ids.map { permutation.row(for: $0) } == rows.map { Optional($0) })
        #expect(try #require(AssetIDPermutation(key: Self.key)).id(forRow: 42) == ids[41], "the same key, the same ID")
        var other = Self.key
        other[0] ^= 1
        let otherIDs = try #require(AssetIDPermutation(key: other))
        #expect(rows.prefix(1_000).filter { otherIDs.id(forRow: $0) == permutation.id(forRow: $0) }.isEmpty, "a key's IDs are its own")
        #expect(AssetIDPermutation(key: Array(Self.key.prefix(15))) == nil)
    }

    @Test("consecutive rows' IDs are in no order, and an ID no row has is refused or names a row far past any")
    func nothingGivenAway() throws {
        let permutation = try #require(AssetIDPermutation(key: Self.key))
        let ids = (Int64(1)...2_001).map(permutation.id(forRow:))
        let rising = zip(ids, ids.dropFirst()).filter { $0 < $1 }.count
        #expect((800...1_200).contains(rising), "about half the neighbours rise, as for random IDs: \(rising) of 2,000")
        var generator = SystemRandomNumberGenerator()
        let guesses = (0..<10_000).map { _ in AssetID.random(using: &generator) }
        #expect(guesses.allSatisfy { guess in permutation.row(for: guess).map { $0 > 1 << 40 } ?? true })
    }
}
