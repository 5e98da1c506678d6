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
}
