import Foundation
import GRDB
import PhotoLibCore
@testable import PhotoLibStore
import Testing

@Suite("Schema upgrades")
struct MigrationTests {
    @Test("a store opened on an older photolibd's database names the steps it took, in order; a new one and an up-to-date one none")
    func stepsTakenAreNamed() throws {
        var template = Array("/tmp/photolibd-migrated-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/photolibd.sqlite"
        let older = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(older, upTo: "v16: a location check that depends on the file's mode")
        try older.close()
        let upgraded = try Store(path: path)
        let all = Schema.migrator.migrations
        let after = try #require(all.firstIndex(of: "v16: a location check that depends on the file's mode"))
        #expect(upgraded.migrated == Array(all[(after + 1)...]), "\(upgraded.migrated)")
        #expect(upgraded.migrated.first?.hasPrefix("v17") == true)
        #expect(try Store(path: path).migrated.isEmpty, "nothing left to do the second time")
        #expect(try Store(path: directory + "/new.sqlite").migrated.isEmpty, "a new database is made, not upgraded")
    }

    @Test("v6 turns each file row into an asset with one member: IDs, selections and row numbers stay, pairing is due")
    func assetsBecomeGroups() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v5: view names nobody can guess")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO album (id, parent, name) VALUES (2, 1, CAST('Trips' AS BLOB));
                INSERT INTO asset (rowid, id, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal)
                    VALUES (7, 'aaaaaaaaaaaaaaaa', 2, CAST('IMG_1.HEIC' AS BLOB), 'image', 1, 10, 100, 5, 420, NULL, NULL),
                           (9, 'bbbbbbbbbbbbbbbb', 2, CAST('IMG_1.MOV' AS BLOB), 'video', 1, 11, 200, 5, 420, 3, 'ownedByAnotherUser');
                DELETE FROM asset WHERE rowid = 9;
                INSERT INTO asset (rowid, id, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal)
                    VALUES (8, 'cccccccccccccccc', 2, CAST('IMG_1.MOV' AS BLOB), 'video', 1, 11, 200, 5, 420, 3, 'ownedByAnotherUser');
                INSERT INTO app (id, uid, createdAt, viewName) VALUES ('org.example.Viewer', 1000, 0, CAST('view-0000000000000000' AS BLOB));
                INSERT INTO selectedAsset (app, asset) VALUES ('org.example.Viewer', 8);
                """)
        }
        try Schema.migrator.migrate(queue)
        try queue.read { db in
            let tx = StoreTransaction(db: db)
            let video = try #require(try tx.asset(rowID: 8))
            #expect(video.id.rawValue == "cccccccccccccccc" && video.mediaType == .video)
            #expect(video.members.map(\.rowID) == [8] && video.primary.refusal == .ownedByAnotherUser && video.primary.file.birthTime == 3)
            #expect(try tx.selectedAssetRowIDs(AppID("org.example.Viewer")!) == [8])
            #expect(try Int.fetchAll(db, sql: "SELECT album FROM pairingDue ORDER BY album") == [1, 2])
            // The deleted row 9 is never handed out again.
            #expect(try Int.fetchAll(db, sql: "SELECT seq FROM sqlite_sequence WHERE name IN ('asset', 'member')") == [9, 9])
            #expect(try String.fetchOne(db, sql: "PRAGMA foreign_key_check") == nil)
        }
    }

    @Test("v8 moves the change log into a rowid table: every event, token and body stays, resuming and pruning work, and removing the app empties it")
    func changeLogByRow() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v7: requests that wait for the person")
        let app = AppID("org.example.Viewer")!
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO app (id, uid, createdAt, viewName, lastToken) VALUES ('org.example.Viewer', 1000, 0, CAST('view-0000000000000000' AS BLOB), 3);
                INSERT INTO changeLog (app, token, kind, body) VALUES
                    ('org.example.Viewer', 1, 'change', CAST('{"token":1}' AS BLOB)),
                    ('org.example.Viewer', 3, 'selection', CAST('{"token":3}' AS BLOB)),
                    ('org.example.Viewer', 2, 'authorization', zeroblob(100000));
                """)
        }
        // Up to the step before per-app IDs, which start every app's history afresh (tested below).
        try Schema.migrator.migrate(queue, upTo: "v14: rule grants and capture times")
        try queue.write { db in
            let tx = StoreTransaction(db: db)
            let events = try tx.events(app, after: 1)
            #expect(events.map(\.token) == [2, 3] && events.map(\.kind) == [.authorization, .selection])
            #expect(events[0].body.count == 100_000 && events[1].body == Array(#"{"token":3}"#.utf8))
            let appended = try tx.appendEvent(app, kind: .change, retention: 2) { token in Array("{\"token\":\(token)}".utf8) }
            #expect(appended.token == 4)
            #expect(try tx.events(app, after: 0).map(\.token) == [3, 4], "pruned to the last two")
            #expect(try tx.tokens(app)?.floor == 2)
            try tx.deleteApp(app)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM changeLog") == 0)
            #expect(try String.fetchOne(db, sql: "PRAGMA foreign_key_check") == nil)
        }
    }

    @Test("v15 gives every app a key of its own for asset IDs, and puts every token it was given below its history floor (its IDs changed)")
    func perAppIDKeys() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v14: rule grants and capture times")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO app (id, uid, createdAt, viewName, lastToken, historyFloor) VALUES
                    ('org.example.A', 1000, 0, CAST('view-0000000000000000' AS BLOB), 7, 2),
                    ('org.example.B', 1000, 0, CAST('view-0000000000000001' AS BLOB), 0, 0);
                """)
        }
        try Schema.migrator.migrate(queue)
        try queue.read { db in
            let tx = StoreTransaction(db: db)
            let a = try #require(try tx.app(AppID("org.example.A")!)), b = try #require(try tx.app(AppID("org.example.B")!))
            #expect(a.assetIDs != b.assetIDs, "each app its own key")
            let id = AssetID("0123456789abcdef")!
            #expect(a.assetIDs.id(for: id) != b.assetIDs.id(for: id))
            #expect(try tx.tokens(AppID("org.example.A")!)?.floor == 8, "token 7 and all before it are below the floor: a reset")
            #expect(try tx.tokens(AppID("org.example.A")!)?.last == 8)
        }
    }

    @Test("v20 keeps every name folded as a search compares it: ASCII letters lowered, every other byte as it was")
    func foldedNames() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v19: whether captions and people leave with an app's picks")
        let names: [[UInt8]] = [Array("IMG_0001.HEIC".utf8), [0xC3, 0x89, 0x54, 0xC3, 0x89, 0x2E, 0x4A, 0x50, 0x47], [0x42, 0xFF, 0x5A, 0x80]]
        try queue.write { db in
            try db.execute(sql: "INSERT INTO asset (rowid, id, mediaType) VALUES (1, 'aaaaaaaaaaaaaaaa', 'image')")
            for (index, name) in names.enumerated() {
                try db.execute(sql: """
                    INSERT INTO member (asset, album, name, mediaType, device, inode, size, mtime, mode)
                    VALUES (1, 1, ?, 'image', 1, ?, 1, 1, 420)
                    """, arguments: [Data(name), index + 10])
            }
        }
        try Schema.migrator.migrate(queue)
        try queue.read { db in
            let folded = try Data.fetchAll(db, sql: "SELECT folded FROM member ORDER BY rowid").map { [UInt8]($0) }
            #expect(folded == names.map(NameFolding.fold))
            #expect(folded[2] == [0x62, 0xFF, 0x7A, 0x80])
        }
    }

    @Test("v22: videos found nowhere are looked at again for their own position; photos, and places found, stay")
    func videosLookedAtAgain() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v21: a member's update recomputes its assets' types only when its asset or type changed")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO asset (rowid, id, mediaType) VALUES (1, 'aaaaaaaaaaaaaaaa', 'image');
                INSERT INTO member (rowid, asset, album, name, mediaType, device, inode, size, mtime, mode, place) VALUES
                    (1, 1, 1, x'61', 'video', 1, 10, 1, 1, 420, 0),
                    (2, 1, 1, x'62', 'video', 1, 11, 1, 1, 420, 2988507),
                    (3, 1, 1, x'63', 'image', 1, 12, 1, 1, 420, 0),
                    (4, 1, 1, x'64', 'video', 1, 13, 1, 1, 420, -1);
                """)
        }
        try Schema.migrator.migrate(queue)
        let places = try queue.read { db in try Int64?.fetchAll(db, sql: "SELECT place FROM member ORDER BY rowid") }
        #expect(places == [nil, 2_988_507, 0, -1])
    }

    @Test("v23: the place finder's next files, and those to look at again at a start, are found through partial indexes, not a scan")
    func placelessIndex() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue)
        let plan = try queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT rowid FROM member WHERE place IS NULL AND rowid > 5 ORDER BY rowid LIMIT 1024")
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("member_placeless"), "\(plan)")
        let retry = try queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN UPDATE member SET place = NULL WHERE place = -1").map { $0["detail"] as String }.joined()
        }
        #expect(retry.contains("member_placeUnreadable"), "the files to look at again at each start, without a scan: \(retry)")
        let indexes = try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'member'") }
        #expect(!indexes.contains("member_place"), "\(indexes)")
    }

    @Test("v21: an update that keeps a member's asset and type runs no type query; one that changes either still does")
    func movedTriggerOnlyWhenNeeded() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO asset (rowid, id, mediaType) VALUES (1, 'aaaaaaaaaaaaaaaa', 'image'), (2, 'bbbbbbbbbbbbbbbb', 'image');
                INSERT INTO member (rowid, asset, album, name, mediaType, device, inode, size, mtime, mode)
                VALUES (1, 1, 1, x'612E6A7067', 'image', 1, 10, 1, 1, 420), (2, 2, 1, x'622E6A7067', 'image', 1, 11, 1, 1, 420);
                -- A stored type the trigger would correct if it ran: it tells whether it did.
                UPDATE asset SET mediaType = 'live' WHERE rowid = 1;
                UPDATE member SET album = 1, name = x'632E6A7067', mediaType = 'image' WHERE rowid = 1;
                """)
            #expect(try String.fetchOne(db, sql: "SELECT mediaType FROM asset WHERE rowid = 1") == "live", "a rename ran the type queries")
            try db.execute(sql: "UPDATE member SET mediaType = 'video' WHERE rowid = 1")
            #expect(try String.fetchOne(db, sql: "SELECT mediaType FROM asset WHERE rowid = 1") == "video")
            try db.execute(sql: "UPDATE member SET asset = 2 WHERE rowid = 1")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM asset WHERE rowid = 1") == 0, "the emptied asset goes")
            #expect(try String.fetchOne(db, sql: "SELECT mediaType FROM asset WHERE rowid = 2") == "live")
        }
    }

    @Test("v24: every asset keeps its ID and row, selections stay, no row number is reused; a new asset stores no ID and is found by its own; the triggers still work")
    func permutedIDs() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v23: only the files waiting for a look at their place are indexed by it")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO app (id, uid, createdAt, viewName, idKey) VALUES ('org.example.A', 1000, 0, x'7631', x'000102030405060708090a0b0c0d0e0f');
                INSERT INTO asset (rowid, id, mediaType) VALUES (1, 'aaaaaaaaaaaaaaaa', 'image'), (5, 'bbbbbbbbbbbbbbbb', 'image');
                INSERT INTO member (rowid, asset, album, name, mediaType, device, inode, size, mtime, mode)
                VALUES (1, 1, 1, x'612E6A7067', 'image', 1, 10, 1, 1, 420), (2, 5, 1, x'622E6A7067', 'image', 1, 11, 1, 1, 420);
                INSERT INTO selectedAsset (app, asset) VALUES ('org.example.A', 5);
                UPDATE sqlite_sequence SET seq = 9 WHERE name = 'asset';
                """)
        }
        try Schema.migrator.migrate(queue)
        try queue.write { db in
            let tx = StoreTransaction(db: db)
            #expect(try tx.asset(id: AssetID("aaaaaaaaaaaaaaaa")!)?.rowID == 1)
            #expect(try tx.asset(rowID: 5)?.id.rawValue == "bbbbbbbbbbbbbbbb")
            #expect(try Int64.fetchAll(db, sql: "SELECT asset FROM selectedAsset") == [5])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try Data.fetchOne(db, sql: "SELECT assetIDKey FROM library")?.count == 16)
            let made = try tx.insertMember(album: AlbumTree.rootID, name: FileName("c.jpg")!, mediaType: .image,
                                           file: FileFacts(device: 1, inode: 12, size: 1, modificationTime: 1, permissions: 0o644))
            #expect(made.asset == 10, "rows 6-9 were used and deleted before: never again")
            #expect(try String?.fetchOne(db, sql: "SELECT id FROM asset WHERE rowid = 10") == .some(nil), "no ID stored")
            let id = try #require(try tx.asset(rowID: 10)?.id)
            #expect(try tx.asset(id: id)?.rowID == 10 && id.rawValue != "aaaaaaaaaaaaaaaa")
            #expect(try tx.asset(id: try tx.assetIDs().id(forRow: 1)) == nil, "row 1's own ID is not its permutation's")
            _ = try tx.insertMember(album: AlbumTree.rootID, name: FileName("a.mov")!, mediaType: .video,
                                   file: FileFacts(device: 1, inode: 13, size: 1, modificationTime: 1, permissions: 0o644), joining: 1)
            #expect(try tx.asset(rowID: 1)?.mediaType == .live, "a member joining an asset sets its type (no trigger since v25)")
            try tx.deleteMember(rowID: 2)
            #expect(try tx.asset(rowID: 5) == nil, "member_deleted still takes the emptied asset")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name") == ["member_deleted", "member_moved"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'member' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    == ["member_asset", "member_placeUnreadable", "member_placeless"], "no index of every file's inode (v25)")
        }
    }
}
