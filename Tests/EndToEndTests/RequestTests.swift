import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing
import TestSupport

/// Apps asking the person, and the person answering (SPEC §5, §6), with the
/// daemon run by the library's owner. The app side connects to its endpoint,
/// where any peer is that app; the person's side is photolibctl.
@Suite("Asking for access", .serialized)
struct RequestTests {
    let app = "org.example.Viewer"

    func endpoint(_ daemon: RunningDaemon) async throws -> String {
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        return try #require(apps.first { $0.app == app }?.endpoint)
    }

    func pending(_ daemon: RunningDaemon) async throws -> [RequestInfo] {
        try await JSONDecoder().decode(RequestsResult.self, from: Data(try daemon.ok("requests", "--json").utf8)).requests
    }

    @Test("requests are stored, joined, kept across a restart, answered to the waiting app and as events, and cannot flood")
    func askingAndAnswering() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("a.jpg")
        try library.write("b.jpg")
        // A waiting app is listening: the idle timeout must not close it.
        let config = library.root + "/photolibd.toml"
        // 3 s, not 1: under a full run's load a fresh connection was once idle a second before its first
        // line arrived, and was closed ("the connection to photolibd was lost before it answered").
        try "[protocol]\nidle_timeout_seconds = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", config])
        try await daemon.ok("app", "add", app, "--uid", "4242", "--purpose", "Makes albums")
        let endpoint = try await endpoint(daemon)
        let watcher = try EventReader(daemon, app: nil)

        // Asked without waiting: pending; asked again: the same request; add-only is another.
        // (A fresh connection each time: an idle one is closed after 3 s here.)
        func fresh() throws -> PhotoLibConnection { try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60) }
        let first = try fresh().requestAuthorization(wait: false)
        #expect(first.state == "pending" && first.status == "notDetermined" && first.request != nil)
        let again = try fresh().requestAuthorization(wait: false)
        #expect(again.request == first.request, "one pending request per app and kind")
        let addOnly = try fresh().requestAuthorization(access: .addOnly, wait: false)
        #expect(addOnly.request != first.request && addOnly.access == "addOnly")
        #expect(throws: PhotoLibError.self) { _ = try fresh().requestReview(wait: false) }  // not limited: reviewNeedsLimited
        var listed = try await pending(daemon)
        #expect(listed.map(\.request) == [first.request!, addOnly.request!])
        #expect(listed.allSatisfy { $0.app == app && $0.purpose == "Makes albums" })
        #expect(try await daemon.ok("requests").contains("read-write access"))

        // The person's tools heard it: a `request` event, only for admins.
        let announced = try await watcher.next()
        #expect(announced.head.event == "request" && announced.head.token == nil)
        let event = try announced.decode(RequestEvent.self)
        #expect(event.request == first.request && event.state == "pending" && event.purpose == "Makes albums")

        // Kept across a restart, with the same numbers.
        await daemon.stop()
        try await daemon.start(extraArguments: ["--config", config])
        listed = try await pending(daemon)
        #expect(listed.map(\.request) == [first.request!, addOnly.request!])
        // An admin subscribing later hears what waits.
        let lateWatcher = try EventReader(daemon, app: nil)
        let waiting = await [try lateWatcher.next(), try lateWatcher.next()].map { $0.head.event }
        #expect(waiting == ["request", "request"])

        // The app asks again and waits; the person answers `limited a.jpg`: the reply is the answer.
        let appEvents = try EventReader(socketPath: endpoint, app: nil)
        let subscribed = appEvents.subscribed
        let waitingApp = onThread {
            try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60).requestAuthorization()
        }
        try await waitUntil("the app to wait") { try await pending(daemon).first?.waiting == 1 }
        // Longer than the idle timeout, which must not close a connection waiting for the person.
        try await Task.sleep(for: .milliseconds(4_000))
        #expect(try await pending(daemon).first?.waiting == 1)
        let typo = try await daemon.ctl("answer", String(first.request!), "limited", "no-such.jpg")
        #expect(typo.status == 3 && typo.stderr.contains("no-such.jpg"), "an answer with a typo changes nothing: \(typo.stderr)")
        #expect(try await pending(daemon).count == 2)
        #expect(try await daemon.ok("answer", String(first.request!), "limited", "a.jpg").contains("limited"))
        let answer = try await waitingApp.value
        #expect(answer.request == first.request && answer.state == "answered" && answer.answer == "limited")
        let shown = try await daemon.appIDs(app)  // the app hears its own IDs
        #expect(answer.status == "limited" && answer.addedAssets == [shown["a.jpg"]!])
        #expect(await daemon.viewEntries(app).count == 1)
        // …and as an `authorization` event naming the request.
        var sawAuthorization = false
        while !sawAuthorization {
            let next = try await appEvents.next()
            #expect(next.head.event != "request", "an app never hears admin events")
            if next.head.event == "authorization" {
                let authorization = try next.decode(AuthorizationEvent.self)
                #expect(authorization.request == first.request && authorization.status == "limited" && authorization.state == "answered")
                #expect(authorization.token > subscribed.token ?? 0)
                sawAuthorization = true
            }
        }

        // Decided: asking again is answered at once, nothing stored.
        let decided = try fresh().requestAuthorization()
        #expect(decided.request == nil && decided.status == "limited" && decided.state == "answered")

        // A review: the person adds b.jpg; the answer names what is new.
        let review = onThread { try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60).requestReview() }
        try await waitUntil("the review to be waited for") { try await pending(daemon).contains { $0.kind == "review" && $0.waiting == 1 } }
        let reviewRequest = try #require(try await pending(daemon).first { $0.kind == "review" })
        try await daemon.ok("answer", String(reviewRequest.request), "limited", "a.jpg", "b.jpg")
        let reviewed = try await review.value
        #expect(reviewed.addedAssets == [shown["b.jpg"]!], "a.jpg was already shared")

        // Add-only cannot be limited; cancel withdraws it and changes nothing; an unknown request is not found.
        let limitedAddOnly = try await daemon.ctl("answer", String(addOnly.request!), "limited")
        #expect(limitedAddOnly.status == 2 && limitedAddOnly.stderr.contains("all or nothing"), "\(limitedAddOnly.stderr)")
        #expect(try await daemon.ctl("answer", String(addOnly.request!), "denied", "a.jpg").status == 2)
        #expect(try await daemon.ok("answer", String(addOnly.request!), "cancel").contains("cancelled"))
        #expect(try fresh().authorizationStatus().addOnly == "notDetermined")
        let gone = try await daemon.ctl("answer", String(addOnly.request!), "authorized")
        #expect(gone.status == 3 && gone.stderr.contains("photolibctl requests"))

        // Denied: asking again gets `denied` at once until the person changes it.
        try await daemon.ok("authorize", app, "denied")
        #expect(try fresh().requestAuthorization().status == "denied")
        #expect(try fresh().requestAuthorization().request == nil)
        #expect(try await pending(daemon).isEmpty)

        // The person deciding with `authorize` answers a waiting request too.
        try await daemon.ok("authorize", app, "not-determined")
        let settledByAuthorize = onThread { try PhotoLibConnection(socketPath: endpoint, receiveTimeout: 60).requestAuthorization() }
        try await waitUntil("the request to be waited for") { try await pending(daemon).first?.waiting == 1 }
        try await daemon.ok("authorize", app, "authorized")
        let settled = try await settledByAuthorize.value
        #expect(settled.status == "authorized" && settled.answer == "authorized" && settled.state == "answered")

        // Removing the app withdraws its requests.
        _ = try fresh().requestAuthorization(access: .addOnly, wait: false)
        try await daemon.ok("app", "remove", app)
        #expect(try await pending(daemon).isEmpty)
        // Without a desktop bus nothing broke: the daemon said why no notification was shown.
        #expect(daemon.log.contains("no desktop notification"), "\(daemon.log)")
    }

    @Test("examples/subscriber.py --ask, on the app's endpoint as the owner's uid, waits for the person and then follows the view")
    func exampleSubscriberAsks() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("a.jpg")
            try lib.write("b.jpg")
        }
        let owner = try #require(daemon.library.owner)
        try await daemon.ok("app", "add", app, "--uid", String(owner.uid))
        let output = daemon.library.root + "/subscriber.out"
        let python = owner.command("/usr/bin/python3")
        let subscriber = try await SpawnedProcess(
            python[0], Array(python.dropFirst()) + [try ReachableCopies.example("subscriber.py"), app, "--ask", "--count", "0"],
            environment: ["PHOTOLIBD_ENDPOINT": try endpoint(daemon)], output: output)
        try await waitUntil("the example to wait for the person", while: subscriber) { try await pending(daemon).first?.waiting == 1 }
        try await daemon.ok("answer", String(try #require(try pending(daemon).first).request), "authorized")
        #expect(await subscriber.exited(timeout: 30) == 0)
        let printed = try String(contentsOfFile: output, encoding: .utf8)
        #expect(printed.contains("the person answered: authorized") && printed.contains("listed 2 assets"), "\(printed)")
    }

    @Test("where a session bus is reachable, the person gets a desktop notification naming the app and its purpose")
    func desktopNotification() async throws {
        let library = try await TestLibrary(owner: try TestOwner())
        try library.write("a.jpg")
        let owner = try #require(library.owner)
        // A private session bus run by the owner, and a monitor that records what is sent on it.
        let bus = try await PrivateSessionBus.start(for: library, owner: owner)
        defer { bus.stop() }
        let address = bus.address
        let monitorOutput = library.root + "/monitor.out"
        let monitorCommand = owner.command("/usr/bin/dbus-monitor")
        let monitor = try SpawnedProcess(monitorCommand[0], Array(monitorCommand.dropFirst()) + [
            "--address", address, "interface='org.freedesktop.Notifications'",
        ], output: monitorOutput)
        defer { monitor.signal(SIGTERM) }
        try await waitUntil("the monitor to attach") {
            ((try? String(contentsOfFile: monitorOutput, encoding: .utf8)) ?? "").contains("NameAcquired")
        }

        let daemon = try RunningDaemon(library)
        try await daemon.start(environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        try await daemon.ok("app", "add", app, "--uid", "4242", "--purpose", "Prints <your> holiday photos")
        let asked = try await PhotoLibConnection(socketPath: try endpoint(daemon), receiveTimeout: 60).requestAuthorization(wait: false)
        let request = try #require(asked.request)
        try await waitUntil("the notification to be sent") {
            let seen = (try? String(contentsOfFile: monitorOutput, encoding: .utf8)) ?? ""
            return seen.contains("member=Notify") && seen.contains("\(app) asks for access to your photos")
        }
        let seen = try String(contentsOfFile: monitorOutput, encoding: .utf8)
        #expect(seen.contains("Purpose: Prints &lt;your&gt; holiday photos"), "\(seen)")
        #expect(seen.contains("photolibctl answer \(request)"), "\(seen)")
        #expect(seen.contains("photolibctl ui --request \(request)"), "the notification names the page: \(seen)")
        // No notification service owns the name here: the daemon says so and carries on.
        try await waitUntil("the daemon to log the outcome") { daemon.log.contains("Request \(request):") }
        #expect(try await pending(daemon).count == 1)
    }
}

/// A value shared between a test and a thread it started.
final class LockedBox<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ new: T) { lock.withLock { value = new } }
}
