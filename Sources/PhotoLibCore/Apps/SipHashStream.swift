extension SipHash {
    /// SipHash-2-4 with a 128-bit output over a message fed as whole 64-bit words (each one
    /// little-endian, as the reference reads its bytes): a digest of many small fields without an
    /// array made for them. Equal to `hash128` of the same bytes (`SipHashTests`).
    public struct WordStream: Sendable {
        private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64
        private var words = 0

        public init(k0: UInt64, k1: UInt64) {
            v0 = 0x736f6d6570736575 ^ k0
            v1 = 0x646f72616e646f6d ^ k1 ^ 0xee
            v2 = 0x6c7967656e657261 ^ k0
            v3 = 0x7465646279746573 ^ k1
        }

        @inline(__always) private mutating func round() {
            v0 &+= v1; v1 = v1 << 13 | v1 >> 51; v1 ^= v0; v0 = v0 << 32 | v0 >> 32
            v2 &+= v3; v3 = v3 << 16 | v3 >> 48; v3 ^= v2
            v0 &+= v3; v3 = v3 << 21 | v3 >> 43; v3 ^= v0
            v2 &+= v1; v1 = v1 << 17 | v1 >> 47; v1 ^= v2; v2 = v2 << 32 | v2 >> 32
        }

        public mutating func feed(_ word: UInt64) {
            v3 ^= word
            round(); round()
            v0 ^= word
            words += 1
        }

        /// Feeds `bytes` as its length, then its bytes in words, the last padded with zeros: two
        /// byte strings fed one after the other cannot be taken for two others.
        public mutating func feed(bytes: [UInt8]) {
            feed(UInt64(bytes.count))
            var word: UInt64 = 0
            for (offset, byte) in bytes.enumerated() {
                word |= UInt64(byte) << (8 * UInt64(offset & 7))
                if offset & 7 == 7 {
                    feed(word)
                    word = 0
                }
            }
            if bytes.count & 7 != 0 { feed(word) }
        }

        /// The digest's two halves, as `hash128` gives them (its first eight bytes little-endian, then the next eight).
        public consuming func finish() -> (UInt64, UInt64) {
            finish(tail: 0, length: words * 8)
        }

        /// The digest of the words fed and then `length - 8 × words` bytes more, in `tail` (little-endian):
        /// the message's last block, as the reference makes it.
        consuming func finish(tail: UInt64, length: Int) -> (UInt64, UInt64) {
            let last = UInt64(truncatingIfNeeded: length & 0xFF) << 56 | tail
            v3 ^= last
            round(); round()
            v0 ^= last
            v2 ^= 0xee
            for _ in 0..<4 { round() }
            let first = v0 ^ v1 ^ v2 ^ v3
            v1 ^= 0xdd
            for _ in 0..<4 { round() }
            return (first, v0 ^ v1 ^ v2 ^ v3)
        }
    }
}
