import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PhotoLibCore
@testable import PhotoLibPage
import PhotoLibSystem
import ServiceLifecycle
import Synchronization
import Testing

/// The page's guard and sign-in in process: the page's own router served by Hummingbird on loopback, and
/// driven with Hummingbird's test client, which sets `Host` and `Origin` as a browser (or an attacker's page) would.
/// No daemon runs: a request the guard lets through reaches its route, which then says photolibd cannot be reached.
@Suite("The page's routes, in process")
struct PageRouteTests {
    /// A clock the test sets: sign-in lifetimes are judged by it.
    final class TestClock: WallClock, Sendable {
        let offset = Atomic<Int64>(0)
        func now() -> Int64 { nowMilliseconds() / 1000 }
        func nowMilliseconds() -> Int64 { SystemClock().nowMilliseconds() + offset.load(ordering: .relaxed) * 1000 }
    }

    /// A page server's router on a temporary directory, served on a port the kernel picks.
    struct Page {
        let paths: PagePaths
        let signIn: SignIn
        let clock: TestClock
        let port: Int
        let client: TestClient

        var host: String { "127.0.0.1:\(port)" }
        var origin: String { "http://127.0.0.1:\(port)" }

        /// Writes a one-time secret as `photolibctl ui` does; returns its ID and secret.
        func secret() throws -> (id: String, secret: String) {
            var generator = SystemRandomNumberGenerator()
            let id = Secret.hex(bytes: 16, using: &generator)
            let secret = Secret.hex(bytes: 32, using: &generator)
            try PrivateFiles.write(paths.signInDirectory + "/" + id, Array(secret.utf8))
            return (id, secret)
        }

        func request(_ uri: String, _ method: HTTPRequest.Method = .get, host: String? = nil, cookie: String? = nil, origin: String? = nil,
                     csrf: String? = nil, body: String? = nil) async throws -> TestClient.Response {
            var headers: HTTPFields = [:]
            if let cookie { headers[.cookie] = "\(PageServer.cookieName)=\(cookie)" }
            if let origin { headers[.origin] = origin }
            if let csrf { headers[HTTPField.Name("X-CSRF-Token")!] = csrf }
            if body != nil { headers[.contentType] = "application/json" }
            return try await client.execute(TestClient.Request(uri, method: method, authority: host ?? self.host, headers: headers,
                                                               body: body.map { ByteBuffer(string: $0) }))
        }

        /// Signs in with a fresh secret; returns the session cookie's value and its CSRF token.
        func signedIn() async throws -> (cookie: String, csrf: String) {
            let (id, secret) = try secret()
            let response = try await request("/sign-in?id=\(id)&secret=\(secret)")
            let setCookie = response.headers[.setCookie] ?? ""
            let prefix = PageServer.cookieName + "="
            guard response.status == .ok, setCookie.hasPrefix(prefix) else { throw PageTestError.notSignedIn(response.status.code) }
            let cookie = String(setCookie.dropFirst(prefix.count).prefix { $0 != ";" })
            guard let session = await signIn.session(cookie) else { throw PageTestError.notSignedIn(0) }
            return (cookie, session.csrfToken)
        }
    }

    enum PageTestError: Error {
        case notSignedIn(Int)
        case noPort
    }

    /// Runs `body` against a page served for it, and stops the server after.
    func withPage(_ body: (Page) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "photolibd-page-routes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try PrivateFiles.makeDirectory(directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/photolibd.sock"  // nothing listens: routes that ask the daemon say it is not there
        let paths = PagePaths(socket: socket)
        try PrivateFiles.makeDirectory(paths.directory)
        try PrivateFiles.makeDirectory(paths.signInDirectory)
        let logger = Logger(label: "page-routes-test")
        let clock = TestClock()
        let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PhotoLibPage/Site").path
        let context = PageContext(
            daemon: DaemonLink(socket: socket), library: directory + "/library",
            thumbnails: ThumbnailCache(decoders: DecoderPool(settings: .init(executable: "/bin/false")), cacheHome: nil, log: { _ in }),
            signIn: SignIn(paths: paths), activity: Activity(clock: clock), site: site, logger: logger, clock: clock, ownerUID: getuid())
        let bound = Atomic<Int>(0)
        let router = try PageServer.router(context, port: { bound.load(ordering: .relaxed) }, feed: EventFeed(socket: socket, logger: logger))
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
                              onServerRunning: { channel in
                                  bound.store(channel.localAddress?.port ?? 0, ordering: .relaxed)
                                  portSink.yield(channel.localAddress?.port ?? 0)
                              }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let server = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            server.cancel()
            throw PageTestError.noPort
        }
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120)))
        client.connect()
        let outcome = await Result { () async throws -> Void in
            try await body(Page(paths: paths, signIn: context.signIn, clock: clock, port: port, client: client))
        }
        try? await client.shutdown()
        // Stopped as the page server stops: gracefully, so no request is cut off and nothing is logged as an error.
        await group.triggerGracefulShutdown()
        try await server.value
        try outcome.get()
    }

    @Test("a Host other than the page's own loopback address is refused (DNS rebinding), even when signed in")
    func wrongHost() async throws {
        try await withPage { page in
            let (cookie, _) = try await page.signedIn()
            for host in ["localhost:\(page.port)", "evil.example:\(page.port)", "127.0.0.1:1"] {
                let response = try await page.request("/", host: host, cookie: cookie)
                #expect(response.status.code == 421, "Host \(host)")
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("only at its own loopback address"))
            }
            #expect(try await page.request("/", cookie: cookie).status == .ok, "the page's own Host")
        }
    }

    @Test("without a session cookie, or with one this server never opened, nothing but signing in is served")
    func noSession() async throws {
        try await withPage { page in
            for cookie in [nil, String(repeating: "a", count: 64), "short"] as [String?] {
                for uri in ["/", "/api/apps", "/api/session"] {
                    let response = try await page.request(uri, cookie: cookie)
                    #expect(response.status == .unauthorized, "\(uri) with cookie \(cookie ?? "none")")
                    #expect(String(buffer: response.body ?? ByteBuffer()).contains("not signed in"))
                }
            }
            #expect(try await page.request("/signed-in.js").status == .ok, "what the sign-in answer loads needs no session")
        }
    }

    @Test("a secret signs in once: the answer sets an HttpOnly, SameSite=Strict cookie that opens the page; the same secret again, a wrong one, or one past its minute is refused")
    func signIn() async throws {
        try await withPage { page in
            let (id, secret) = try page.secret()
            let first = try await page.request("/sign-in?id=\(id)&secret=\(secret)")
            #expect(first.status == .ok)
            let setCookie = first.headers[.setCookie] ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/"))
            let cookie = String(setCookie.dropFirst(PageServer.cookieName.count + 1).prefix { $0 != ";" })
            #expect(try await page.request("/", cookie: cookie).status == .ok, "the cookie opens the page")
            let again = try await page.request("/sign-in?id=\(id)&secret=\(secret)")
            #expect(again.status == .forbidden)
            #expect(String(buffer: again.body ?? ByteBuffer()).contains("used already"))
            #expect(again.headers[.setCookie] == nil)

            let (otherID, _) = try page.secret()
            let wrong = try await page.request("/sign-in?id=\(otherID)&secret=\(String(repeating: "0", count: 64))")
            #expect(wrong.status == .forbidden)
            #expect(String(buffer: wrong.body ?? ByteBuffer()).contains("not right"))

            // The page's clock, injected, is two minutes ahead of when the secret was written.
            let (oldID, oldSecret) = try page.secret()
            page.clock.offset.store(120, ordering: .relaxed)
            let old = try await page.request("/sign-in?id=\(oldID)&secret=\(oldSecret)")
            #expect(old.status == .forbidden)
            #expect(String(buffer: old.body ?? ByteBuffer()).contains("older than 60 seconds"))
        }
    }

    @Test("a change needs the page's own Origin and the session's CSRF token; with both it reaches its route")
    func changes() async throws {
        try await withPage { page in
            let (cookie, csrf) = try await page.signedIn()
            let uri = "/api/apps/org.example.Viewer/location"
            let body = #"{"location":"none"}"#
            for origin in [nil, "http://evil.example", "http://127.0.0.1:1", "null"] as [String?] {
                let response = try await page.request(uri, .post, cookie: cookie, origin: origin, csrf: csrf, body: body)
                #expect(response.status == .forbidden, "origin \(origin ?? "none")")
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("may only come from the page itself"))
            }
            for token in [nil, "", String(csrf.reversed()), csrf + "0"] as [String?] {
                let response = try await page.request(uri, .post, cookie: cookie, origin: page.origin, csrf: token, body: body)
                #expect(response.status == .forbidden, "token \(token ?? "none")")
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("did not carry the page's token"))
            }
            let unsigned = try await page.request(uri, .post, origin: page.origin, csrf: csrf, body: body)
            #expect(unsigned.status == .unauthorized, "a token without the session's cookie is nothing")
            // Let through: the route asks the daemon, which is not running here, and says so.
            let through = try await page.request(uri, .post, cookie: cookie, origin: page.origin, csrf: csrf, body: body)
            #expect(through.status == .badRequest)
            #expect(String(buffer: through.body ?? ByteBuffer()).contains("photolibd"), "the route's own answer, not a guard's")
        }
    }

    @Test("every answer carries the page's security headers, refusals included")
    func headers() async throws {
        try await withPage { page in
            let (cookie, _) = try await page.signedIn()
            for response in [try await page.request("/", cookie: cookie), try await page.request("/api/apps"),
                             try await page.request("/", host: "evil.example")] {
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body, kept to act on after cleanup.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
