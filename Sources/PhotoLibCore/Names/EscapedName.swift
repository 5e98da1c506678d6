/// A reversible text spelling of byte names, for JSON, terminals and command lines.
///
/// Valid, printable UTF-8 passes through unchanged, so ordinary names read as
/// themselves. A backslash becomes `\\`; a control character or a byte that is
/// not part of valid UTF-8 becomes `\xNN`. Decoding gives back the exact bytes,
/// so NFC/NFD twins and invalid names stay distinct end to end.
public enum EscapedName {
    public static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x5C {
                out += "\\\\"
                index += 1
            } else if byte < 0x20 || byte == 0x7F {
                out += hex(byte)
                index += 1
            } else if byte < 0x80 {
                out.unicodeScalars.append(Unicode.Scalar(byte))
                index += 1
            } else if let (scalar, length) = decodeScalar(bytes, at: index), !isControl(scalar) {
                out.unicodeScalars.append(scalar)
                index += length
            } else {
                out += hex(byte)
                index += 1
            }
        }
        return out
    }

    /// Decodes an escaped spelling; `nil` when an escape is malformed.
    public static func unescape(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == 0x5C else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < input.count else { return nil }
            switch input[index + 1] {
            case 0x5C:
                out.append(0x5C)
                index += 2
            case 0x78:  // x
                guard index + 3 < input.count,
                      let high = hexValue(input[index + 2]), let low = hexValue(input[index + 3])
                else { return nil }
                out.append(high << 4 | low)
                index += 4
            default:
                return nil
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Strict UTF-8 decoding of one multi-byte scalar (no overlongs, no surrogates).
    private static func decodeScalar(_ bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[start]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard start + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let next = bytes[start + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        let minimum: UInt32 = length == 3 ? 0x800 : (length == 4 ? 0x10000 : 0x80)
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
