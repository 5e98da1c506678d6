/// What kind of media an asset is.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case image
    case video
}
