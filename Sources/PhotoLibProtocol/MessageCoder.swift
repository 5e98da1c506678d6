import Foundation

/// Encodes messages as single JSON lines and decodes them back.
public struct MessageCoder: Sendable {
    public init() {}

    public func encodeLine<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let written = value as? any WritesJSONLine {
            var bytes = written.jsonBytes()
            bytes.append(0x0A)
            return bytes
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var bytes = Array(try encoder.encode(value))
        bytes.append(0x0A)
        return bytes
    }

    public func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(line))
    }
}
