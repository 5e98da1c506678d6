/// One line of `photolibctl doctor`: what was checked, how it went, and what to do.
public struct DoctorCheck: Sendable, Equatable, Codable {
    /// `warn` reports something worth fixing that does not break photolibd; only `fail` makes doctor exit non-zero.
    public enum Outcome: String, Sendable, Codable {
        case pass, warn, fail
    }

    /// A short stable name such as `views-mount`, for scripts.
    public var name: String
    public var outcome: Outcome
    /// What was found, in one sentence.
    public var detail: String
    /// What to do about it; nil when it passed.
    public var advice: String?

    public init(_ name: String, _ outcome: Outcome, _ detail: String, advice: String? = nil) {
        self.name = name
        self.outcome = outcome
        self.detail = detail
        self.advice = advice
    }
}
