import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibStore
import Testing

/// What each app is granted, on its own: a store in memory holding an app and three photos; no engine,
/// no index, no view. Each commit runs in a transaction of the test's, as the engine runs it in its own.
@Suite("What each app is granted (its owner)")
struct AppGrantsTests {
    static let frame = AppID("org.example.Frame")!
    static let person = EventActor(uid: 1000, role: .admin)

    let store: Store
    let grants = AppGrants(journal: ChangeJournal(retention: 1000))
    let photos: [AssetRecord]

    init() throws {
        store = try Store(inMemory: ())
        var generator = SystemRandomNumberGenerator()
        let app = AppRecord(id: Self.frame, uid: 4242, purpose: "Shows photos", readWrite: .notDetermined, addOnly: .notDetermined,
                            viewName: FileName("view-frame")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        let files = (1...3).map { index in
            DirectoryPlan.NewFile(name: FileName("IMG_\(index).jpg")!, mediaType: .image,
                                  facts: FileFacts(device: 9, inode: UInt64(index), size: 10, modificationTime: 0, permissions: 0o644),
                                  refusal: nil)
        }
        photos = try store.write { tx in
            try tx.insertApp(app, createdAt: 0)
            return try tx.insertNewAssets(album: AlbumTree.rootID, files: files)
        }
    }

    var app: AppRecord { get throws { try #require(try store.read { try $0.app(Self.frame) }) } }

    /// The photos in the app's selection, by row.
    func selected() throws -> Set<Int64> {
        let app = try app
        return try store.read { try $0.viewPolicy(of: app, as: .limited) }.selectedAssets
    }

    func authorize(_ status: AuthorizationStatus, answering: AuthorizationPlan.Answering? = nil, endsAt: Int64? = nil) throws -> AuthorizationCommit {
        try store.write { tx in
            try grants.commit(AuthorizationChange(app: Self.frame, by: Self.person, change: AuthorizationPlan.Change(
                level: .readWrite, status: status, answering: answering, endsAt: endsAt)), tx: tx)
        }
    }

    func select(_ photos: [AssetRecord], adding: Bool = true, answering: AccessRequest? = nil) throws -> SelectionEditCommit {
        let app = try app
        return try store.write { tx in
            try grants.commit(SelectionEditProbe(app: app, edit: SelectionEdit(assets: photos, albums: []), adding: adding, before: nil),
                              by: Self.person, answering: answering, tree: AlbumTree(),
                              viewAfter: { app, plan in AppViewContext(app: app, policy: plan.after, appearance: { _ in .original }) }, tx: tx)
        }
    }

    @Test("a status set answers the app's question it decides, which leaves the store; the event names that request")
    func authorization() throws {
        let asked = try store.write { tx in try tx.pendingRequest(Self.frame, kind: .authorization(.readWrite), now: 100).request }
        let done = try authorize(.limited)
        #expect(try app.readWrite == .limited)
        #expect(done.settled.map(\.request.id) == [asked.id] && done.settled.first?.outcome.status == "limited")
        #expect(try store.read { try $0.requests(app: Self.frame) }.isEmpty)
        #expect(done.plan.namedRequest == asked.id)
        #expect(done.published.count == (done.plan.reloads ? 2 : 1))
    }

    @Test("a status for a while: it returns to what it was, and the store says when and to what")
    func timed() throws {
        _ = try authorize(.limited)
        let done = try authorize(.authorized, endsAt: 2_000)
        #expect(done.plan.returnsTo == .limited)
        let end = try store.read { try $0.authorizationEnd(Self.frame, access: .readWrite) }
        #expect(end?.returnsTo == .limited)
    }

    @Test("photos selected join the app's grants, and are named to it by its own IDs; taken away, they leave; a review answered goes")
    func selection() throws {
        _ = try authorize(.limited)
        let added = try select([photos[0], photos[1]])
        #expect(added.plan.changedAssets.map(\.rowID) == [photos[0].rowID, photos[1].rowID])
        #expect(try selected() == Set([photos[0].rowID, photos[1].rowID]))
        let shown = try app.assetIDs
        #expect(Set(added.plan.shownAdded) == Set([photos[0], photos[1]].map { shown.id(for: $0.id).rawValue }))
        #expect(added.published.count == 1, "one selection event; no view event without the view before")

        let review = try store.write { tx in try tx.pendingRequest(Self.frame, kind: .review, now: 100).request }
        let removed = try select([photos[0]], adding: false, answering: review)
        #expect(try selected() == Set([photos[1].rowID]))
        #expect(removed.settled.map(\.request.id) == [review.id])
        #expect(try store.read { try $0.requests(app: Self.frame) }.isEmpty)
        #expect(throws: PhotoLibError.unknownRequest(review.id)) { try select([photos[2]], answering: review) }
        #expect(try selected() == Set([photos[1].rowID]),
                "a request answered twice: nothing of the second edit stays")
    }

    @Test("a rule grant: written once, the same span and type again the rule already there; taken back one or all; each that changes the view has the app reload")
    func rules() throws {
        _ = try authorize(.limited)
        let app = try app
        let first = try store.write { tx in try grants.addRule(app, from: 1_000, to: 2_000, mediaType: .image, tx: tx) }
        #expect(first.plan.existing == nil && first.published.count == 1)
        let again = try store.write { tx in try grants.addRule(app, from: 1_000, to: 2_000, mediaType: .image, tx: tx) }
        #expect(again.rule == first.rule && again.plan.existing == first.rule, "the same rule is not given twice")
        let second = try store.write { tx in try grants.addRule(app, from: 5_000, to: 6_000, mediaType: nil, tx: tx) }
        #expect(try store.read { try $0.selectedRules(Self.frame) }.map(\.id).sorted() == [first.rule.id, second.rule.id].sorted())
        let one = try store.write { tx in try grants.removeRules(app, ids: [first.rule.id], tx: tx) }
        #expect(one.plan.removed == [first.rule])
        let rest = try store.write { tx in try grants.removeRules(app, ids: nil, tx: tx) }
        #expect(rest.plan.removed == [second.rule] && rest.published.count == 1)
        #expect(try store.read { try $0.selectedRules(Self.frame) }.isEmpty)
        let none = try store.write { tx in try grants.removeRules(app, ids: nil, tx: tx) }
        #expect(none.plan.removed.isEmpty && none.published.isEmpty, "nothing to take back: nothing told")
    }

    @Test("grants that end: the photos they name leave the selection, a row the index no longer holds is planned as only deselected, the status returns; each event says expired")
    func ends() throws {
        let app = try app
        _ = try authorize(.limited)
        _ = try select([photos[1]])
        _ = try store.write { tx in
            try grants.commit(SelectionEditProbe(app: app, edit: SelectionEdit(assets: [photos[0]], albums: []), adding: true, before: nil),
                              by: Self.person, endsAt: 500, tree: AlbumTree(),
                              viewAfter: { app, plan in AppViewContext(app: app, policy: plan.after, appearance: { _ in .original }) }, tx: tx)
        }
        _ = try authorize(.authorized, endsAt: 500)
        let due = ExpiringGrant.due(try store.read { try $0.expiringGrants() }, now: 600).ended + [ExpiringGrant(app: Self.frame, kind: .asset(9_999), endsAt: 500)]
        let plan = try store.read { tx in try grants.planEnd(due, tree: AlbumTree(), tx: tx) }
        #expect(plan.assets.map(\.rowID) == [photos[0].rowID] && plan.unnamedAssetRows == [9_999] && plan.statuses.count == 1)
        let probe = SelectionEditProbe(app: try self.app, edit: SelectionEdit(assets: plan.assets, albums: plan.albums), adding: false, before: nil)
        let ended = try store.write { tx in
            try grants.commitEnd(plan, of: Self.frame, selection: probe, by: EventActor(uid: 1000, role: .expiry), tree: AlbumTree(),
                                 viewAfter: { app, plan in AppViewContext(app: app, policy: plan.after, appearance: { _ in .original }) }, tx: tx)
        }
        #expect(try selected() == [photos[1].rowID], "the photo for good stays; the timed one left")
        #expect(try self.app.readWrite == .limited, "the status returned to what it was")
        #expect(try store.read { try $0.expiringGrants() }.isEmpty)
        let told = [ended.deselected?.published.first, ended.authorized.first?.published.first].map { $0.map { String(decoding: $0.line, as: UTF8.self) } }
        #expect(told.allSatisfy { $0?.contains("\"expired\"") == true }, "the selection's event and the status's say expired")
    }
}
