import Foundation
import GRDB
import PhotoLibCore
@testable import PhotoLibStore
import Testing

/// The change log keeps large events compressed and gives back exactly the JSON that was logged,
/// whether it was stored compressed, stored before compression, or damaged (an error, never an event).
@Suite("Change log bodies")
struct ChangeLogBodyTests {
    let app = AppID("org.example.Viewer")!

    func storeWithApp() throws -> Store {
        let store = try Store(inMemory: ())
        let record = AppRecord(id: app, uid: 1, purpose: "", readWrite: .limited, addOnly: .notDetermined,
                               viewName: FileName("view-0000000000000000")!, assetIDs: StoreTests.ids)
        try store.write { tx in try tx.insertApp(record, createdAt: 0) }
        return store
    }

    /// An event like a selection of `count` photos, as the journal writes it.
    func selection(_ count: Int, token: Int64) -> [UInt8] {
        let assets = (0..<count).map { index in
            #"{"entry":"IMG_\#(index).jpg","id":"a\#(String(index * 7919, radix: 36))","mediaType":"image","mtime":1795835494784845633,"size":\#(index)}"#
        }
        return Array(#"{"app":"org.example.Viewer","event":"change","inserted":[\#(assets.joined(separator: ","))],"token":\#(token)}"#.utf8)
    }

    func storedBytes(_ store: Store, token: Int64) throws -> Data {
        try store.read { tx in try Data.fetchOne(tx.db, sql: "SELECT body FROM changeLog WHERE token = ?", arguments: [token])! }
    }

    @Test("a large event is stored compressed, a small one as it is, and both read back byte for byte")
    func roundTrip() throws {
        let store = try storeWithApp()
        let large = try store.write { tx in try tx.appendEvent(app, kind: .change, retention: 100) { selection(2_000, token: $0) } }
        let small = try store.write { tx in try tx.appendEvent(app, kind: .change, retention: 100) { Array(#"{"event":"change","token":\#($0)}"#.utf8) } }
        #expect(large.body == selection(2_000, token: large.token))
        let storedLarge = try storedBytes(store, token: large.token)
        #expect(ChangeLogBody.isFrame(storedLarge))
        #expect(storedLarge.count * 4 < large.body.count, "stored \(storedLarge.count) bytes for \(large.body.count) of JSON")
        #expect(try storedBytes(store, token: small.token) == Data(small.body), "a frame would be larger: the JSON is kept")
        let read = try store.read { tx in try tx.events(app, after: 0) }
        #expect(read.map(\.token) == [large.token, small.token])
        #expect(read.map(\.body) == [large.body, small.body])
    }

    @Test("an event stored before bodies were compressed reads as it was")
    func olderBodies() throws {
        let store = try storeWithApp()
        let json = selection(500, token: 1)
        try store.write { tx in
            try tx.db.execute(sql: "INSERT INTO changeLog (app, token, kind, body) VALUES (?, 1, 'change', ?)", arguments: [app.rawValue, Data(json)])
        }
        #expect(try store.read { tx in try tx.events(app, after: 0) }.map(\.body) == [json])
    }

    @Test("a damaged frame is an error that names the change log and the event, not an event")
    func damage() throws {
        let store = try storeWithApp()
        let event = try store.write { tx in try tx.appendEvent(app, kind: .change, retention: 100) { selection(2_000, token: $0) } }
        var frame = try storedBytes(store, token: event.token)
        frame = frame.prefix(frame.count / 2)
        try store.write { tx in try tx.db.execute(sql: "UPDATE changeLog SET body = ?", arguments: [frame]) }
        #expect {
            _ = try store.read { tx in try tx.events(app, after: 0) }
        } throws: { error in
            guard case PhotoLibError.databaseFailed(_, let detail) = error else { return false }
            return detail.contains("change log") && detail.contains("compressed event") && detail.contains("event \(event.token)")
        }
    }

    @Test("unpack refuses a frame that does not say its size or claims an absurd one")
    func unpackRefuses() {
        // A frame header with no content size (single-segment flag off, size flag 0), then nothing.
        let noSize = Data([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00])
        guard case .failure = ChangeLogBody.unpack(noSize) else { Issue.record("a frame without its size was read"); return }
        guard case .success(let bytes) = ChangeLogBody.unpack(Data("{}".utf8)), bytes == Array("{}".utf8) else {
            Issue.record("JSON was not read as it is"); return
        }
    }
}
