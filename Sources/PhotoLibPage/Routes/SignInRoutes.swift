import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PhotoLibCore

/// `/sign-in`: trades a one-time secret for the session cookie.
///
/// Both a link (`photolibctl ui --url`) and a form (the file `photolibctl ui`
/// opens) arrive here. The answer sets an `HttpOnly`, `SameSite=Strict`
/// cookie and sends the browser on to `/` from a script of the page's own,
/// so the address bar never keeps the secret and the first navigation is
/// same-site (a redirect from a form on a `file://` page would not carry a
/// Strict cookie).
enum SignInRoutes {
    struct Form: Decodable {
        let id: String
        let secret: String
    }

    static func add(to router: Router<BasicRequestContext>, _ page: PageContext) {
        router.get("/sign-in") { request, _ in
            let id = request.uri.queryParameters.get("id") ?? ""
            let secret = request.uri.queryParameters.get("secret") ?? ""
            return await signIn(id: id, secret: secret, next: request.uri.queryParameters.get("next"), page)
        }
        router.post("/sign-in") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: 4096)
            let fields = URLComponents(string: "?" + String(buffer: body))?.queryItems ?? []
            let id = fields.first { $0.name == "id" }?.value ?? ""
            let secret = fields.first { $0.name == "secret" }?.value ?? ""
            return await signIn(id: id, secret: secret, next: fields.first { $0.name == "next" }?.value, page)
        }
        router.get("/signed-in.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: "location.replace('/' + (document.body.dataset.next || ''));\n")))
        }
    }

    /// `next`: where the page opens, `request-N` for a request's sheet; anything else opens the apps.
    static func signIn(id: String, secret: String, next: String?, _ page: PageContext) async -> Response {
        let target = next.flatMap { text -> String? in
            guard text.hasPrefix("request-"), let number = Int64(text.dropFirst(8)), number > 0 else { return nil }
            return "#request/\(number)"
        } ?? ""
        switch await page.signIn.signIn(id: id, secret: secret, now: Double(page.clock.nowMilliseconds()) / 1000) {
        case .signedIn(let session):
            var response = html(.ok, "Signed in", "<p>Signed in; opening your photos…</p><script src=\"/signed-in.js\"></script>",
                                next: target)
            response.headers[values: .setCookie].append("\(PageServer.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict")
            page.logger.notice("A browser signed in to the page.")
            return response
        case .refused(let why):
            page.logger.warning("A sign-in was refused: \(why)")
            return html(.forbidden, "Not signed in", "<p>\(why)</p>")
        case .tooManyAttempts:
            page.logger.warning("A sign-in was refused: too many wrong attempts in the last minute.")
            return html(.tooManyRequests, "Not signed in", "<p>Too many wrong sign-in attempts; wait a minute, then run 'photolibctl ui' again.</p>")
        }
    }

    static func html(_ status: HTTPResponse.Status, _ title: String, _ body: String, next: String = "") -> Response {
        let page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(title) · Photos</title></head>"
            + "<body data-next=\"\(next)\">\(body)</body></html>"
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
    }
}
