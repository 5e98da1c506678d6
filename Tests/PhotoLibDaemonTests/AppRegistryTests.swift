import Foundation
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import Testing

/// The owner of the registered apps on a store alone: no engine, no view, no Flatpak.
@Suite("The registered apps (their owner)")
struct AppRegistryTests {
    static let viewer = AppID("org.example.Viewer")!
    let store: Store
    let apps = AppRegistry(journal: ChangeJournal(retention: 1000))

    init() throws {
        store = try Store(inMemory: ())
    }

    static func kinds(_ published: [PublishedEvent]) throws -> [String] {
        try published.map { event in
            try #require(try JSONSerialization.jsonObject(with: Data(event.line)) as? [String: Any])["event"] as? String ?? "?"
        }
    }

    @Test("a new app's view name and ID key are drawn at random, never from its ID; a Flatpak app runs as the owner")
    func newRecords() {
        let one = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "Shows photos", location: .precise, flatpak: false, ownerUID: 1000)
        let two = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "Shows photos", location: .precise, flatpak: false, ownerUID: 1000)
        #expect(one.uid == 4242 && !one.flatpakPictures && one.readWrite == .notDetermined && one.addOnly == .notDetermined)
        #expect(one.viewName != two.viewName, "the same ID registered again gets another view")
        #expect(!one.viewName.description.contains("Viewer"))
        let flatpak = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "", location: .none, flatpak: true, ownerUID: 1000)
        #expect(flatpak.uid == 1000 && flatpak.flatpakPictures)
    }

    @Test("registered once: the same ID again is refused, saying under which uid it is")
    func registering() throws {
        let record = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "", location: .precise, flatpak: false, ownerUID: 1000)
        _ = try store.write { tx in try apps.register(record, at: 100, tx: tx) }
        #expect(try store.read { try $0.app(Self.viewer) } == record)
        let again = AppRegistry.newRecord(Self.viewer, uid: 7, purpose: "", location: .precise, flatpak: false, ownerUID: 1000)
        #expect(throws: PhotoLibError.appExists(Self.viewer, uid: 4242)) { try store.write { tx in try apps.register(again, at: 200, tx: tx) } }
    }

    @Test("location: a change is written and has the app told to reload; the same again tells nothing; an unknown app is an error")
    func location() throws {
        let record = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "", location: .precise, flatpak: false, ownerUID: 1000)
        _ = try store.write { tx in try apps.register(record, at: 100, tx: tx) }
        let changed = try store.write { tx in try apps.setLocation(Self.viewer, .none, tx: tx) }
        #expect(changed.plan.after.location == .none && changed.plan.reloads)
        #expect(try Self.kinds(changed.published) == ["change"])
        let reload = try JSONDecoder().decode(ChangeEvent.self, from: Data(try #require(changed.published.first).line))
        #expect(!reload.incremental, "a change that is not a list: reload the whole view")
        #expect(try store.read { try $0.app(Self.viewer) }?.location == LocationPolicy.none)
        let same = try store.write { tx in try apps.setLocation(Self.viewer, .none, tx: tx) }
        #expect(same.published.isEmpty && !same.plan.reloads)
        #expect(throws: PhotoLibError.unknownApp(AppID("org.example.Nobody")!)) {
            try store.write { tx in try apps.setLocation(AppID("org.example.Nobody")!, .none, tx: tx) }
        }
        let captions = try store.write { tx in try apps.setCaptions(Self.viewer, shared: true, tx: tx) }
        #expect(captions.after.captions && !captions.reloads, "captions change picks only: no view to reload")
    }

    @Test("removed with its requests: each one pending is withdrawn for the person's tools")
    func removing() throws {
        let record = AppRegistry.newRecord(Self.viewer, uid: 4242, purpose: "Shows photos", location: .precise, flatpak: false, ownerUID: 1000)
        _ = try store.write { tx in try apps.register(record, at: 100, tx: tx) }
        let asked = try store.write { tx in try tx.pendingRequest(Self.viewer, kind: .review, now: 150).request }
        let done = try store.write { tx in try apps.remove(record, tx: tx) }
        #expect(done.plan.withdrawn.map(\.id) == [asked.id])
        #expect(try Self.kinds(done.published) == ["request"])
        #expect(try store.read { try $0.app(Self.viewer) } == nil)
        #expect(try store.read { try $0.requests(app: nil) }.isEmpty, "its requests go with it")
    }
}
