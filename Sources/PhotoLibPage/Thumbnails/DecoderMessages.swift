import Foundation

/// What the page server asks a decoder process for: one thumbnail. One JSON line.
struct DecodeRequest: Codable, Sendable {
    /// The file's path bytes, base64 (a name need not be UTF-8).
    var path: String
    var uri: String
    var mtime: Int64
    var video: Bool
}

/// A decoder's answer: a JSON line, then `bytes` bytes of PNG when there are any.
struct DecodeReply: Codable, Sendable {
    var bytes: Int?
    var error: String?
    /// Said by a decoder that leaves after waiting idle: a request that crossed it was never read.
    var idle: Bool?
}

/// One JSON line each way: requests and replies are small, the PNG follows its reply raw.
enum DecoderLine {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding these plain structs cannot fail.
        ((try? JSONEncoder().encode(value)) ?? Data()) + [0x0A]
    }

    static func decode<T: Decodable>(_ type: T.Type, _ line: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(line))
    }
}

/// Reads lines and exact byte counts from a stream, keeping what it read ahead.
struct StreamReader {
    private var pending: [UInt8] = []
    private let read: () throws -> [UInt8]

    /// `read` returns the next bytes, or none at end of stream.
    init(read: @escaping () throws -> [UInt8]) {
        self.read = read
    }

    /// The next line without its newline; nil at end of stream.
    mutating func line(limit: Int = 1 << 20) throws -> [UInt8]? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            guard pending.count < limit else { return nil }
            let more = try read()
            if more.isEmpty { return nil }
            pending += more
        }
    }

    /// Exactly `count` bytes; nil when the stream ends first.
    mutating func bytes(_ count: Int) throws -> [UInt8]? {
        while pending.count < count {
            let more = try read()
            if more.isEmpty { return nil }
            pending += more
        }
        let taken = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return taken
    }
}
