import PhotoLibCore
import PhotoLibSystem

/// One-time sign-in secrets and the sessions they open.
///
/// `photolibctl ui` writes a secret into a 0600 file in the page's own 0700
/// directory (`PagePaths.signInDirectory`), named by a non-secret ID. Signing in
/// shows the ID and the secret; the file is taken (removed) on the first
/// attempt, right or wrong, so a secret works once, and only within
/// `lifetime` seconds of being written. Secrets are compared in constant time,
/// and after `failureLimit` wrong attempts in a minute every attempt is
/// refused for a minute: a local process cannot guess its way in.
public actor SignIn {
    public struct Session: Sendable {
        public let csrfToken: String
    }

    public enum Outcome: Sendable, Equatable {
        case signedIn(session: String)
        case refused(String)
        case tooManyAttempts
    }

    private let paths: PagePaths
    private let lifetime: Double
    private let failureLimit: Int
    private var sessions: [String: Session] = [:]
    private var failures: [Double] = []

    public init(paths: PagePaths, lifetime: Double = 60, failureLimit: Int = 5) {
        self.paths = paths
        self.lifetime = lifetime
        self.failureLimit = failureLimit
    }

    /// Takes the secret named `id` and compares it with `secret`.
    public func signIn(id: String, secret: String, now: Double) -> Outcome {
        failures.removeAll { $0 < now - 60 }
        guard failures.count < failureLimit else { return .tooManyAttempts }
        guard id.count == 32, id.allSatisfy(\.isHexDigit) else { return fail(now, "That sign-in link is malformed; run 'photolibctl ui' again.") }
        let file = paths.signInDirectory + "/" + id
        // Read, then remove: whatever the outcome, this secret has been tried.
        let stored: [UInt8]?
        do {
            stored = try PrivateFiles.read(file, limit: 4096)
        } catch {
            // Not "used already": something is wrong with the page's directory, and the person should hear what.
            PrivateFiles.remove(file)
            return fail(now, "That sign-in could not be read (\(error)); check that \(paths.signInDirectory) is yours, then run 'photolibctl ui' again.")
        }
        let age = PathInspection.status(file).map { now - Double($0.modificationTime) / 1e9 }
        PrivateFiles.remove(file)
        PrivateFiles.remove(paths.signInPage(id))
        guard let stored, let age else { return fail(now, "That sign-in link was used already, or never made; run 'photolibctl ui' again.") }
        guard age <= lifetime else { return fail(now, "That sign-in link is older than \(Int(lifetime)) seconds; run 'photolibctl ui' again.") }
        guard PageRequestCheck.secretsEqual(stored, Array(secret.utf8)) else {
            return fail(now, "That sign-in link is not right; run 'photolibctl ui' again.")
        }
        let session = Self.random()
        sessions[session] = Session(csrfToken: Self.random())
        return .signedIn(session: session)
    }

    private static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return Secret.hex(bytes: 32, using: &generator)
    }

    private func fail(_ now: Double, _ why: String) -> Outcome {
        failures.append(now)
        return .refused(why)
    }

    /// The session a cookie names, when it is one this server opened.
    public func session(_ cookie: String?) -> Session? {
        guard let cookie, cookie.count == 64 else { return nil }
        // Looked up by every known key in constant time each: no timing tells how much of a cookie was right.
        var found: Session?
        for (key, session) in sessions where PageRequestCheck.secretsEqual(Array(key.utf8), Array(cookie.utf8)) { found = session }
        return found
    }
}
