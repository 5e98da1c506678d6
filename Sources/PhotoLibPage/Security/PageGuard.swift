import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibCore

/// The checks of `PageRequestCheck`, run before every route, and the headers every answer carries.
struct PageGuard<Context: RequestContext>: RouterMiddleware {
    let port: @Sendable () -> Int
    let signIn: SignIn
    let activity: Activity

    /// Paths that work without a session: signing in and what its answer loads.
    static func isPublic(_ path: String) -> Bool {
        path == "/sign-in" || path == "/signed-in.js" || path == "/favicon.ico"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        await activity.touch()
        let session = await signIn.session(request.cookies[PageServer.cookieName]?.value)
        let csrf = request.headers[HTTPField.Name("X-CSRF-Token")!]
        let facts = PageRequestCheck.Facts(
            host: request.head.authority, origin: request.headers[.origin],
            changesState: request.method != .get && request.method != .head,
            sessionValid: session != nil,
            csrfMatches: session.map { s in csrf.map { PageRequestCheck.secretsEqual(Array($0.utf8), Array(s.csrfToken.utf8)) } ?? false } ?? false,
            isPublic: Self.isPublic(request.uri.path))
        var response: Response
        if let refusal = PageRequestCheck.refusal(facts, port: port()) {
            response = PageServer.problem(HTTPResponse.Status(code: refusal.status), refusal.message)
        } else {
            response = try await next(request, context)
        }
        Self.secure(&response.headers)
        return response
    }

    /// No framing, nothing from elsewhere, no sniffing, no referrer, no caching of private data.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}

/// When the page was last used, for exiting once idle.
actor Activity {
    private let clock: any WallClock
    /// Milliseconds since the epoch.
    private(set) var last: Int64
    private(set) var openStreams = 0

    init(clock: any WallClock) {
        self.clock = clock
        last = clock.nowMilliseconds()
    }

    func touch() { last = clock.nowMilliseconds() }
    func streamOpened() { openStreams += 1; touch() }
    func streamClosed() { openStreams -= 1; touch() }
}
