/// Why a pending request was cancelled, when it was not the person's own
/// Cancel: a caller that shows the pick as a dialog (the file-chooser portal)
/// tells the app "closed" rather than "cancelled".
public enum CancelReason: String, Sendable, Codable, CaseIterable {
    /// The person's page was closed with the request's sheet on it, and not opened again.
    case pageClosed

    /// The reason an admin gave with `answer cancel`, checked.
    public static func parse(_ text: String?, answer: RequestAnswer) throws(PhotoLibError) -> CancelReason? {
        guard let text else { return nil }
        guard answer == .cancel else { throw .invalidParameter(name: "reason", reason: "only a cancel has a reason") }
        guard let reason = CancelReason(rawValue: text) else {
            throw .invalidParameter(name: "reason", reason: "'\(text)' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return reason
    }
}
