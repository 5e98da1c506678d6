import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import Testing

/// The owner of apps' requests on its own, on a store in memory: what an ask and a withdrawal record, and
/// what their settles are to tell; no engine, no view, no thread.
@Suite("Requests to the person (their owner)")
struct RequestDeskTests {
    static let viewer = AppID("org.example.Viewer")!
    static let by = EventActor(uid: 0, role: .admin)

    let store: Store
    let desk = RequestDesk(prompter: DesktopPrompter(logger: Logger(label: "request-desk-test"), socket: "/nonexistent/photolibd.sock"))
    let journal = ChangeJournal(retention: 100)

    init() throws {
        store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        try store.write { tx in
            try tx.insertApp(AppRecord(id: Self.viewer, uid: 1000, purpose: "shows your trips", readWrite: .notDetermined, addOnly: .notDetermined,
                                       viewName: FileName("view-viewer")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator)),
                             createdAt: 0)
        }
    }

    @Test("an undecided app's ask is recorded once, for the person to hear of; asking again joins it; a decided one is answered at once")
    func ask() throws {
        let first = try store.write { tx in try desk.ask(Self.viewer, kind: .authorization(.readWrite), now: 10, tx: tx) }
        #expect(first.outcome.requestState == .pending && first.outcome.request != nil)
        let made = try #require(first.made)
        #expect(made.purpose == "shows your trips")
        let settling = try desk.settling(made, journal: journal)
        #expect(settling.announced.map(\.request.id) == [made.request.id], "the person is told on the desktop")
        #expect(settling.events.count == 1 && String(decoding: settling.events[0].line, as: UTF8.self).contains("\"pending\""))

        let again = try store.write { tx in try desk.ask(Self.viewer, kind: .authorization(.readWrite), now: 20, tx: tx) }
        #expect(again.outcome.request == first.outcome.request && again.made == nil, "joined, not asked twice")

        try store.write { tx in try tx.setAuthorization(Self.viewer, access: .readWrite, status: .denied) }
        try store.write { tx in try tx.deleteRequest(made.request.id) }
        let decided = try store.write { tx in try desk.ask(Self.viewer, kind: .authorization(.readWrite), now: 30, tx: tx) }
        #expect(decided.outcome.request == nil && decided.outcome.requestState == .answered && decided.made == nil)
        #expect(try store.read { try $0.requests(app: Self.viewer) }.isEmpty)
    }

    @Test("a withdrawal deletes the request, keeps the status, and tells the app in its history; twice is an unknown request")
    func cancel() throws {
        let asked = try store.write { tx in try desk.ask(Self.viewer, kind: .authorization(.readWrite), now: 10, tx: tx) }
        let request = try #require(asked.made?.request)
        let changes = try store.write { tx in try desk.cancel(request, by: Self.by, reason: .pageClosed, journal: journal, tx: tx) }
        #expect(changes.answers.map(\.settlement.outcome.requestState) == [.cancelled])
        #expect(changes.answers.first?.reason == .pageClosed)
        #expect(changes.events.count == 1 && String(decoding: changes.events[0].line, as: UTF8.self).contains("\"cancelled\""))
        #expect(try store.read { try $0.app(Self.viewer)?.readWrite } == .notDetermined)
        #expect(throws: PhotoLibError.unknownRequest(request.id)) {
            try store.write { tx in try desk.cancel(request, by: Self.by, reason: nil, journal: journal, tx: tx) }
        }
    }

    @Test("a pick is recorded pending and never joined: a second while one waits is refused; withdrawn, it is gone and said cancelled")
    func pick() throws {
        let made = try store.write { tx in try desk.askPick(Self.viewer, options: PickOptions(), now: 10, tx: tx) }
        #expect(made.purpose == "shows your trips")
        #expect(try desk.settling(pick: made, announce: false, journal: journal).announced.isEmpty, "a sheet its caller opens is not announced")
        #expect(try desk.settling(pick: made, announce: true, journal: journal).announced.map(\.request.id) == [made.request.id])
        #expect(throws: PhotoLibError.pick(.pending(app: Self.viewer, request: made.request.id))) {
            try store.write { tx in try desk.askPick(Self.viewer, options: PickOptions(), now: 20, tx: tx) }
        }
        let withdrawn = try store.write { tx in try desk.withdraw(made.request, journal: journal, tx: tx) }
        #expect(String(decoding: withdrawn.events[0].line, as: UTF8.self).contains("\"cancelled\""))
        #expect(try store.read { try $0.requests(app: Self.viewer) }.isEmpty)
    }

    @Test("an answer to a pick is checked before anything is opened: a pick still pending, assets named, a sharing choice the app allows")
    func pickAnswer() throws {
        let made = try store.write { tx in try desk.askPick(Self.viewer, options: PickOptions(), now: 10, tx: tx) }
        let answer = try store.read { tx in
            try desk.pickAnswer(made.request.id, namesItems: true, location: false, captions: nil, tx: tx)
        }
        #expect(answer.request.id == made.request.id && answer.app.id == Self.viewer)
        #expect(!answer.sharing.location && !answer.sharing.captions, "the person's choice for location, the app's setting for captions")
        #expect(throws: PhotoLibError.pick(.nothingChosen)) {
            try store.read { tx in try desk.pickAnswer(made.request.id, namesItems: false, location: nil, captions: nil, tx: tx) }
        }
        #expect(throws: PhotoLibError.unknownRequest(made.request.id + 1)) {
            try store.read { tx in try desk.pickAnswer(made.request.id + 1, namesItems: true, location: nil, captions: nil, tx: tx) }
        }
        let asked = try store.write { tx in try desk.ask(Self.viewer, kind: .authorization(.readWrite), now: 20, tx: tx) }
        let authorization = try #require(asked.made?.request)
        #expect(throws: PhotoLibError.self, "an authorization is not answered with a pick") {
            try store.read { tx in try desk.pickAnswer(authorization.id, namesItems: true, location: nil, captions: nil, tx: tx) }
        }
    }

    @Test("a pick handed over is gone from the requests, in the access log, and told by the app's own IDs; its event says answered")
    func finishPick() throws {
        let made = try store.write { tx in try desk.askPick(Self.viewer, options: PickOptions(), now: 10, tx: tx) }
        let app = try #require(try store.read { try $0.app(Self.viewer) })
        let asset = AssetID("00000000000000b1")!
        let member = LocatedMember(rowID: 1, path: RelativePath(escaped: "a.jpg")!, mediaType: .image,
                                   file: FileFacts(device: 1, inode: 2, size: 3, modificationTime: 0, permissions: 0o644))
        let delivery = PickPolicy.Delivery(asset: LocatedAsset(rowID: 1, id: asset, mediaType: .image, members: [member], ancestry: []),
                                           members: [member])
        let prepared = PreparedPick(request: made.request, waiter: PickWaiter(connection: ObjectIdentifier(desk.answers), peerUID: 1000, isOpen: { true }, deliver: { _, _ in }),
                                    deliveries: [delivery], ids: app.assetIDs, opened: [], removal: MetadataRemoval(captions: false),
                                    locationAllowed: true)
        let (outcome, purpose) = try store.write { tx in try desk.finishPick(prepared, now: 30, tx: tx) }
        #expect(purpose == "shows your trips")
        #expect(outcome.requestState == .answered && outcome.request == made.request.id)
        let own = app.assetIDs.id(for: asset)
        #expect(outcome.pickedAssets == [own.rawValue] && own != asset, "the app hears its own ID, never the library's")
        #expect(try store.read { try $0.requests(app: Self.viewer) }.isEmpty)
        let logged = try store.read { try $0.accessLog(app: Self.viewer) }
        #expect(logged.map(\.asset) == [asset] && logged.map(\.how) == [.pick] && logged.map(\.request) == [made.request.id])
        let settling = try desk.settling(answeredPick: made.request, purpose: purpose, journal: journal)
        #expect(settling.events.count == 1 && String(decoding: settling.events[0].line, as: UTF8.self).contains("\"answered\""))
    }
}
