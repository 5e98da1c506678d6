import PhotoLibCore
import Testing

/// SipHash-2-4-128 against the reference implementation (github.com/veorq/SipHash,
/// key 00..0f, message 00..len-1, as its vectors.h and test.c).
@Suite("SipHash")
struct SipHashTests {
    @Test("the reference vectors", arguments: [
        (0, "a3817f04ba25a8e66df67214c7550293"), (1, "da87c1d86b99af44347659119b22fc45"),
        (7, "a1f1ebbed8dbc153c0b84aa61ff08239"), (8, "3b62a9ba6258f5610f83e264f31497b4"),
        (15, "5493e99933b0a8117e08ec0f97cfc3d9"), (16, "6ee2a4ca67b054bbfd3315bf85230577"),
        (63, "5150d1772f50834a503e069a973fbd7c"),
    ])
    func vectors(length: Int, expected: String) {
        let digest = SipHash.hash128(key: Array(0..<16), message: (0..<length).map { UInt8($0) })
        #expect(digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() == expected)
    }

    @Test("a message fed as whole words digests as the same bytes do, the reference's vectors among them", arguments: [0, 1, 2, 8])
    func wordStream(words: Int) {
        let message = (0..<words * 8).map { UInt8($0) }
        var stream = SipHash.WordStream(k0: 0x0706050403020100, k1: 0x0f0e0d0c0b0a0908)
        for word in 0..<words {
            stream.feed((0..<8).reduce(UInt64(0)) { $0 | UInt64(message[word * 8 + $1]) << (8 * UInt64($1)) })
        }
        let (first, second) = stream.finish()
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: first >> (8 * UInt64($0))) } + (0..<8).map { UInt8(truncatingIfNeeded: second >> (8 * UInt64($0))) }
        #expect(bytes == SipHash.hash128(key: Array(0..<16), message: message))
    }

    @Test("bytes are fed as their length, then the bytes padded to a word")
    func wordStreamBytes() {
        let name: [UInt8] = Array("IMG_0001.HEIC".utf8)
        var stream = SipHash.WordStream(k0: 1, k1: 2)
        stream.feed(bytes: name)
        var padded = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(name.count) >> (8 * UInt64($0))) } + name
        padded += Array(repeating: 0, count: (8 - name.count % 8) % 8)
        var byWords = SipHash.WordStream(k0: 1, k1: 2)
        for start in stride(from: 0, to: padded.count, by: 8) {
            byWords.feed((0..<8).reduce(UInt64(0)) { $0 | UInt64(padded[start + $1]) << (8 * UInt64($1)) })
        }
        #expect(stream.finish() == byWords.finish())
    }
}
