/// SipHash-2-4 with a 128-bit output (Aumasson and Bernstein): a keyed
/// pseudo-random function made for short inputs, checked against the
/// reference implementation's vectors (`SipHashTests`).
///
/// Used for per-app asset IDs (`AppAssetIDs`): without the key, an app's IDs
/// cannot be linked to another app's or to the library's.
public enum SipHash {
    /// The 16-byte digest of `message` under a 16-byte `key`.
    public static func hash128(key: [UInt8], message: [UInt8]) -> [UInt8] {
        precondition(key.count == 16, "SipHash takes a 16-byte key")
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        var stream = WordStream(k0: word(key[0..<8]), k1: word(key[8..<16]))
        let whole = message.count / 8 * 8
        for start in stride(from: 0, to: whole, by: 8) { stream.feed(word(message[start..<start + 8])) }
        let (first, second) = stream.finish(tail: word(message[whole...]), length: message.count)
        return (0..<8).map { UInt8(truncatingIfNeeded: first >> (8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: second >> (8 * UInt64($0))) }
    }
}

extension SipHash {
    /// SipHash-2-4 with a 64-bit output of one 8-byte message (the word, little-endian) under the key
    /// `k0`, `k1` (its two halves, little-endian): what a keyed permutation's round needs, without an
    /// array made per call. Checked against the reference implementation's vector for 8 bytes.
    public static func hash64(k0: UInt64, k1: UInt64, word: UInt64) -> UInt64 {
        var v0: UInt64 = 0x736f6d6570736575 ^ k0
        var v1: UInt64 = 0x646f72616e646f6d ^ k1
        var v2: UInt64 = 0x6c7967656e657261 ^ k0
        var v3: UInt64 = 0x7465646279746573 ^ k1
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
            v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
        }
        v3 ^= word
        round(); round()
        v0 ^= word
        let last: UInt64 = 8 << 56  // the length, in the last block with no bytes left
        v3 ^= last
        round(); round()
        v0 ^= last
        v2 ^= 0xff
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
