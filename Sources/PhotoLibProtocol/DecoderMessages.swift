import Foundation

// The page server's talk with its decoder processes (photolibd-thumbnailer): one
// request at a time over a socket pair, a JSON line each way, the PNG after its reply.

/// What the page server asks a decoder process for: one thumbnail.
public struct DecodeRequest: Codable, Sendable {
    /// The file's path bytes, base64 (a name need not be UTF-8).
    public var path: String
    public var uri: String
    public var mtime: Int64
    public var video: Bool

    public init(path: [UInt8], uri: String, mtime: Int64, video: Bool) {
        self.path = Data(path).base64EncodedString()
        self.uri = uri
        self.mtime = mtime
        self.video = video
    }

    /// The path's bytes; nil when the request is damaged.
    public var pathBytes: [UInt8]? { Data(base64Encoded: path).map(Array.init) }
}

/// A decoder's answer: a JSON line, then `bytes` bytes of PNG when there are any.
public struct DecodeReply: Codable, Sendable {
    public var bytes: Int?
    public var error: String?
    /// Said by a decoder that leaves after waiting idle: a request that crossed it was never read.
    public var idle: Bool?
    /// With an error for a video: how long it is, in seconds, when its header says (for the placeholder).
    public var duration: Double?

    public init(bytes: Int? = nil, error: String? = nil, idle: Bool? = nil, duration: Double? = nil) {
        self.bytes = bytes
        self.error = error
        self.idle = idle
        self.duration = duration
    }
}

/// One JSON line each way: requests and replies are small, the PNG follows its reply raw.
public enum DecoderLine {
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding these plain structs cannot fail.
        ((try? JSONEncoder().encode(value)) ?? Data()) + [0x0A]
    }

    public static func decode<T: Decodable>(_ type: T.Type, _ line: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(line))
    }
}

/// Reads lines and exact byte counts from a stream, keeping what it read ahead.
public struct StreamReader {
    private var pending: [UInt8] = []
    private let read: () throws -> [UInt8]

    /// `read` returns the next bytes, or none at end of stream.
    public init(read: @escaping () throws -> [UInt8]) {
        self.read = read
    }

    /// The next line without its newline; nil at end of stream.
    public mutating func line(limit: Int = 1 << 20) throws -> [UInt8]? {
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
    public mutating func bytes(_ count: Int) throws -> [UInt8]? {
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
