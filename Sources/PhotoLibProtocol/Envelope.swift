import Foundation
public import PhotoLibCore

/// The protocol version this build speaks; the server greets with it.
public enum ProtocolVersion {
    public static let current = 1
}

/// The first line the server sends on every connection.
public struct Greeting: Codable, Sendable, Equatable {
    public var hello: String
    public var `protocol`: Int
    /// `admin` or `app`.
    public var role: String
    /// For an app peer: the apps registered for its uid.
    public var apps: [String]?

    public init(role: String, apps: [String]?) {
        hello = "photolibd"
        self.protocol = ProtocolVersion.current
        self.role = role
        self.apps = apps
    }
}

/// A request's `id`: a number or a string, echoed in the reply.
public enum RequestID: Codable, Sendable, Hashable {
    case number(Int64)
    case text(String)

    /// The longest text id the server takes, in UTF-8 bytes (docs/PROTOCOL.md):
    /// every reply echoes the id, so a longer one would let a client make the
    /// daemon hold its bytes many times over.
    public static let maximumTextLength = 128

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
            return
        }
        let text = try container.decode(String.self)
        guard text.utf8.count <= Self.maximumTextLength else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'id' is \(text.utf8.count) bytes long; an id may be at most \(Self.maximumTextLength) bytes: use a number or a short string")
        }
        self = .text(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .text(let s): try container.encode(s)
        }
    }
}

/// The part of every request that says what it is.
public struct RequestHead: Decodable, Sendable {
    public var id: RequestID?
    public var method: String
    /// True when the client asks to hear `progress` events before the reply to long work (it has an `id`).
    public var progress: Bool?
}

/// A request with typed parameters (for encoding by clients, decoding by the server).
public struct Request<Params: Codable & Sendable>: Codable, Sendable {
    public var id: RequestID?
    public var method: String
    public var params: Params
    /// Asks for `progress` events before the reply, for long work: only a client that reads them asks.
    public var progress: Bool?

    public init(id: RequestID?, method: String, params: Params, progress: Bool? = nil) {
        self.id = id
        self.method = method
        self.params = params
        self.progress = progress
    }

    private enum CodingKeys: String, CodingKey { case id, method, params, progress }

    /// `params` may be left out (or null) when a method needs none, as
    /// clients habitually do: it is then read as `{}`, so a method that does
    /// need one still says which parameter is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(RequestID.self, forKey: .id)
        method = try container.decode(String.self, forKey: .method)
        progress = try container.decodeIfPresent(Bool.self, forKey: .progress)
        if let given = try container.decodeIfPresent(Params.self, forKey: .params) {
            params = given
        } else {
            params = try JSONDecoder().decode(Params.self, from: Data("{}".utf8))
        }
    }
}

/// No parameters.
public struct NoParams: Codable, Sendable, Equatable {
    public init() {}
}

/// A successful reply.
public struct Reply<Result: Codable & Sendable>: Codable, Sendable {
    public var id: RequestID?
    public var result: Result

    public init(id: RequestID?, result: Result) {
        self.id = id
        self.result = result
    }
}

/// A failed reply: a stable `code` and a sentence that says what to do.
public struct ErrorReply: Codable, Sendable, Equatable {
    public struct Body: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var id: RequestID?
    public var error: Body

    public init(id: RequestID?, error: PhotoLibError) {
        self.id = id
        self.error = Body(code: error.code, message: error.message)
    }

    public init(id: RequestID?, code: String, message: String) {
        self.id = id
        self.error = Body(code: code, message: message)
    }
}
