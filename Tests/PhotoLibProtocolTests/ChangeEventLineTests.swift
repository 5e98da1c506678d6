import Foundation
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// A change event's own writer (`JSONBytes`) writes the bytes `JSONEncoder` would, whatever the
/// names hold: subscribers and the change log read them as they always did.
@Suite("Change event lines")
struct ChangeEventLineTests {
    /// Foundation's encoder, with the options `MessageCoder` gives it.
    static func foundationLine(_ event: ChangeEvent) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(event)) + [0x0A]
    }

    /// SplitMix64 from a seed: the same events in every run.
    struct Draws: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// Every control character, both characters JSON escapes, slashes, DEL, and characters
    /// of two, three and four UTF-8 bytes (among them the line separators JavaScript minds).
    static let alphabet: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["\"", "\\", "/", "\u{7F}", "a", "Z", " ", ".", "é", "\u{2028}", "\u{2029}", "日", "🙂", "\u{FEFF}"]

    static func text(_ draws: inout Draws) -> String {
        String((0..<Int(draws.next() % 12)).map { _ in alphabet[Int(draws.next() % UInt64(alphabet.count))] })
    }

    static func asset(_ draws: inout Draws) -> ViewAsset {
        let members: [ViewMember]? = draws.next() % 3 == 0
            ? (0..<Int(draws.next() % 3)).map { _ in
                ViewMember(entry: text(&draws), mediaType: text(&draws), size: Int64(bitPattern: draws.next()), mtime: Int64(bitPattern: draws.next()))
            }
            : nil
        return ViewAsset(id: text(&draws), entry: text(&draws), mediaType: text(&draws), size: Int64(bitPattern: draws.next()) >> Int(draws.next() % 64),
                         mtime: Int64(bitPattern: draws.next()), members: members)
    }

    @Test("over thousands of random events with hostile names, the bytes are Foundation's, and decode to the event")
    func sameBytesAsFoundation() throws {
        var draws = Draws(state: 7)
        for _ in 0..<3_000 {
            var details = ChangeDetails()
            details.removed = (0..<Int(draws.next() % 4)).map { _ in Self.asset(&draws) }
            details.inserted = (0..<Int(draws.next() % 4)).map { _ in Self.asset(&draws) }
            details.changed = (0..<Int(draws.next() % 4)).map { _ in Self.asset(&draws) }
            let event = ChangeEvent(app: Self.text(&draws), token: Int64(bitPattern: draws.next()), incremental: draws.next() % 2 == 0,
                                    details: details, reason: draws.next() % 2 == 0 ? nil : Self.text(&draws))
            let line = try MessageCoder().encodeLine(event)
            let expected = try Self.foundationLine(event)
            guard line == expected else {
                Issue.record("\(String(decoding: line, as: UTF8.self)) is not Foundation's \(String(decoding: expected, as: UTF8.self))")
                return
            }
            #expect(try MessageCoder().decode(ChangeEvent.self, from: Array(line.dropLast())) == event)
        }
    }

    @Test("every control character is escaped as Foundation escapes it")
    func controlCharacters() throws {
        for byte in UInt8(0)..<0x20 {
            let name = "a" + String(Character(Unicode.Scalar(byte))) + "b"
            let event = ChangeEvent(app: name, token: 1, incremental: true,
                                    details: ChangeDetails(removed: [], inserted: [ViewAsset(id: name, entry: name, mediaType: "image", size: 1, mtime: 2)], changed: []))
            #expect(try MessageCoder().encodeLine(event) == Self.foundationLine(event), "U+\(String(byte, radix: 16))")
        }
    }
}
