/// Who may use the page: the checks every HTTP request passes before a route runs.
///
/// The page holds the owner's power over the library, and any local user, or a
/// sandboxed app sharing the network, can reach a loopback port. So, as
/// Syncthing's GUI learned: the `Host` must be the page's own loopback address
/// (a DNS-rebinding page names its own host), a session cookie from a one-time
/// secret must be shown, and a request that changes anything must come from
/// the page's own origin and carry the session's CSRF token. Pure, so each rule
/// is a table-driven test; the server only gathers the headers.
public enum PageRequestCheck {
    /// Why a request is refused, with the HTTP status it gets.
    public enum Refusal: Equatable, Sendable {
        case wrongHost(String?)
        case noSession
        case foreignOrigin(String?)
        case badCSRFToken

        public var status: Int {
            switch self {
            case .wrongHost: 421
            case .noSession: 401
            case .foreignOrigin, .badCSRFToken: 403
            }
        }

        public var message: String {
            switch self {
            case .wrongHost(let host):
                "This page answers only at its own loopback address, not at host '\(host ?? "")'; open it with 'photolibctl ui'."
            case .noSession:
                "You are not signed in to this page; open it with 'photolibctl ui', which signs you in once."
            case .foreignOrigin(let origin):
                "A change may only come from the page itself, not from origin '\(origin ?? "none")'."
            case .badCSRFToken:
                "This change did not carry the page's token; reload the page and try again."
            }
        }
    }

    /// What the server read from a request.
    public struct Facts: Sendable {
        public var host: String?
        public var origin: String?
        public var changesState: Bool
        public var sessionValid: Bool
        public var csrfMatches: Bool
        /// Routes that work without a session: signing in, and the sign-in page's own files.
        public var isPublic: Bool

        public init(host: String?, origin: String?, changesState: Bool, sessionValid: Bool, csrfMatches: Bool, isPublic: Bool) {
            self.host = host
            self.origin = origin
            self.changesState = changesState
            self.sessionValid = sessionValid
            self.csrfMatches = csrfMatches
            self.isPublic = isPublic
        }
    }

    /// The first rule `facts` break for a page served on `port`, or nil when the request may go on.
    public static func refusal(_ facts: Facts, port: Int) -> Refusal? {
        guard facts.host == "127.0.0.1:\(port)" else { return .wrongHost(facts.host) }
        if facts.isPublic { return nil }
        guard facts.sessionValid else { return .noSession }
        if facts.changesState {
            guard facts.origin == "http://127.0.0.1:\(port)" else { return .foreignOrigin(facts.origin) }
            guard facts.csrfMatches else { return .badCSRFToken }
        }
        return nil
    }

    /// Compares two secrets in time that depends only on their lengths, never on where they differ.
    public static func secretsEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
