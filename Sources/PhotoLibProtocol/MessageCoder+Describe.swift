extension MessageCoder {
    /// A short reason from a decoding error, naming the offending key.
    public static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not valid JSON" }
        switch decoding {
        case .keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' has the wrong type"
        case .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            if path == "id", !context.debugDescription.isEmpty { return context.debugDescription }
            return path.isEmpty ? "not valid JSON" : "'\(path)' is invalid"
        @unknown default: return "not valid JSON"
        }
    }
}
