/// JSON written straight into bytes, as `JSONEncoder` writes it with `.sortedKeys` and
/// `.withoutEscapingSlashes` (the keys are given in their sorted order by the caller), for the
/// messages that can be large: a change event of a burst lists every asset, and Foundation's
/// encoder spent as long on one of 10,000 as the index did on the files themselves.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the next member or element is the first of its object or array.
    private var first = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        first = true
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    /// Starts an element of an array.
    mutating func element() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// Starts a member of an object: its key, which must need no escaping.
    mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func value(_ number: Int64) {
        bytes.append(contentsOf: String(number).utf8)
    }

    mutating func value(_ flag: Bool) {
        bytes.append(contentsOf: flag ? Array("true".utf8) : Array("false".utf8))
    }

    /// A string, escaped as `JSONEncoder` escapes it: quotes, backslashes and control
    /// characters; everything else (slashes, non-ASCII) as its UTF-8.
    mutating func value(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
