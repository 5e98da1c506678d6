import Foundation
import GRDB
import PhotoLibCore

/// The database schema, as ordered migrations (never edit one that has shipped; add another).
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: index, apps, selections") { db in
            // Album 1 is the library root. Names are BLOBs: file names are bytes.
            try db.execute(sql: """
                CREATE TABLE album (
                    id INTEGER PRIMARY KEY,
                    parent INTEGER REFERENCES album(id) ON DELETE CASCADE,
                    name BLOB NOT NULL,
                    UNIQUE (parent, name)
                );
                INSERT INTO album (id, parent, name) VALUES (1, NULL, X'');

                -- AUTOINCREMENT: a deleted asset's row number is never reused, so
                -- selections loaded before a batch can never match a new asset.
                CREATE TABLE asset (
                    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    album INTEGER NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                    name BLOB NOT NULL,
                    mediaType TEXT NOT NULL,
                    device INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    mode INTEGER NOT NULL,
                    UNIQUE (album, name)
                );
                CREATE INDEX asset_inode ON asset (inode);

                CREATE TABLE app (
                    id TEXT PRIMARY KEY,
                    uid INTEGER NOT NULL,
                    purpose TEXT NOT NULL DEFAULT '',
                    readWrite TEXT NOT NULL DEFAULT 'notDetermined',
                    addOnly TEXT NOT NULL DEFAULT 'notDetermined',
                    createdAt INTEGER NOT NULL,
                    -- The app's change token: only increases.
                    lastToken INTEGER NOT NULL DEFAULT 0,
                    -- Tokens at or below this were pruned from the log: older ones get a reset.
                    historyFloor INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX app_uid ON app (uid);

                CREATE TABLE selectedAsset (
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    asset INTEGER NOT NULL REFERENCES asset(rowid) ON DELETE CASCADE,
                    PRIMARY KEY (app, asset)
                ) WITHOUT ROWID;
                CREATE INDEX selectedAsset_asset ON selectedAsset (asset);

                CREATE TABLE selectedAlbum (
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    album INTEGER NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                    PRIMARY KEY (app, album)
                ) WITHOUT ROWID;
                CREATE INDEX selectedAlbum_album ON selectedAlbum (album);

                -- Every event of every app's view, by token, as sent (JSON).
                CREATE TABLE changeLog (
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    token INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    body BLOB NOT NULL,
                    PRIMARY KEY (app, token)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2: tokens outlive a removed app") { db in
            // A removed app's last token, so the same app ID added again
            // continues from it: a client still holding an old token gets a
            // reset, never a token that went backwards.
            try db.execute(sql: """
                CREATE TABLE retiredApp (
                    id TEXT PRIMARY KEY,
                    lastToken INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v3: directories photolibd made") { db in
            // The directories photolibd created above the views (the state
            // directory and parents that did not exist). Only these get ACL
            // entries that let app uids pass; a directory the person made is
            // theirs to open, and doctor says which.
            try db.execute(sql: """
                CREATE TABLE madeDirectory (
                    path TEXT PRIMARY KEY
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v4: birth times and refused originals") { db in
            // btime: nanoseconds, NULL where the filesystem keeps none (and for
            // rows indexed before it was read). With the inode it tells a file
            // from a later one given the same freed inode number.
            // refusal: why the original is left out of every view (LinkRefusal).
            try db.execute(sql: """
                ALTER TABLE asset ADD COLUMN btime INTEGER;
                ALTER TABLE asset ADD COLUMN refusal TEXT;
                """)
        }
        migrator.registerMigration("v5: view names nobody can guess") { db in
            // A view was named by its app ID, so any app uid could stat another
            // app's view through the traversable views root. Each app now has
            // a random name; the daemon moves nothing: the next reconcile makes
            // the new directory and removes the old one.
            try db.execute(sql: "ALTER TABLE app ADD COLUMN viewName BLOB")
            var generator = SystemRandomNumberGenerator()
            for id in try String.fetchAll(db, sql: "SELECT id FROM app") {
                try db.execute(sql: "UPDATE app SET viewName = ? WHERE id = ?",
                               arguments: [Data(ViewName.random(using: &generator).bytes), id])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX app_viewName ON app (viewName)")
        }
        migrator.registerMigration("v6: assets are groups of member files") { db in
            // An asset was one file. Now an asset is an ID (what selections and
            // apps refer to) and one or more member files (a Live Photo: its
            // image and its video). Each old row becomes an asset with one
            // member, under the same row number, so selections stay as they are;
            // pairing happens at the next scan (LivePairing).
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'asset'") ?? 0
            try db.execute(sql: """
                CREATE TABLE member (
                    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
                    asset INTEGER NOT NULL REFERENCES assetGroup(rowid) ON DELETE CASCADE,
                    album INTEGER NOT NULL REFERENCES album(id) ON DELETE CASCADE,
                    name BLOB NOT NULL,
                    mediaType TEXT NOT NULL,
                    device INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    mode INTEGER NOT NULL,
                    btime INTEGER,
                    refusal TEXT,
                    UNIQUE (album, name)
                );
                INSERT INTO member (rowid, asset, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal)
                    SELECT rowid, rowid, album, name, mediaType, device, inode, size, mtime, mode, btime, refusal FROM asset;
                CREATE TABLE assetGroup (
                    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    mediaType TEXT NOT NULL
                );
                INSERT INTO assetGroup (rowid, id, mediaType) SELECT rowid, id, mediaType FROM asset;
                DROP TABLE asset;
                ALTER TABLE assetGroup RENAME TO asset;
                CREATE INDEX member_inode ON member (inode);
                CREATE INDEX member_asset ON member (asset);

                -- An asset lives while it has a member file: the last one gone
                -- (deleted, or moved into another asset) takes the asset, and so
                -- its selections, with it. Its type follows its members.
                CREATE TRIGGER member_deleted AFTER DELETE ON member BEGIN
                    DELETE FROM asset WHERE rowid = OLD.asset AND NOT EXISTS (SELECT 1 FROM member WHERE member.asset = OLD.asset);
                    UPDATE asset SET mediaType = (\(typeOf("OLD.asset"))) WHERE rowid = OLD.asset;
                END;
                CREATE TRIGGER member_moved AFTER UPDATE OF asset, mediaType ON member BEGIN
                    DELETE FROM asset WHERE rowid = OLD.asset AND NOT EXISTS (SELECT 1 FROM member WHERE member.asset = OLD.asset);
                    UPDATE asset SET mediaType = (\(typeOf("OLD.asset"))) WHERE rowid = OLD.asset;
                    UPDATE asset SET mediaType = (\(typeOf("NEW.asset"))) WHERE rowid = NEW.asset;
                END;
                CREATE TRIGGER member_added AFTER INSERT ON member BEGIN
                    UPDATE asset SET mediaType = (\(typeOf("NEW.asset"))) WHERE rowid = NEW.asset;
                END;

                -- Albums whose files were indexed before Live Photos were paired:
                -- the next full scan pairs them all, then empties this table.
                CREATE TABLE pairingDue (
                    album INTEGER PRIMARY KEY REFERENCES album(id) ON DELETE CASCADE
                );
                INSERT INTO pairingDue (album) SELECT id FROM album;
                """)
            // Row numbers are never reused (see v1): the new tables continue
            // from the old sequence, not from the largest row left.
            for table in ["asset", "member"] {
                try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ?", arguments: [table])
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, max(?, (SELECT coalesce(max(rowid), 0) FROM \(table))))",
                               arguments: [table, sequence])
            }
        }
        migrator.registerMigration("v7: requests that wait for the person") { db in
            // An app's pending question (SPEC §5): one per app and kind, kept
            // until the person answers it or the app is removed. AUTOINCREMENT:
            // a request number is never reused, so an answer typed for an old
            // request can never decide a newer one.
            try db.execute(sql: """
                CREATE TABLE accessRequest (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    UNIQUE (app, kind)
                );
                """)
        }
        migrator.registerMigration("v8: a change log whose cost does not grow with its history") { db in
            // The log was WITHOUT ROWID, keyed by (app, token) with the JSON
            // body in the key's record: an index b-tree, whose interior cells
            // carry whole records (about 1 KB each before overflow), so a tree
            // of large events was deep and narrow and every append read many
            // pages (a single-file event's p99 doubled after 200 events of
            // 1,000 assets). Now the body lives in a rowid table, appended at
            // its right edge, and (app, token) is a small separate index.
            try db.execute(sql: """
                CREATE TABLE changeLogByRow (
                    rowid INTEGER PRIMARY KEY,
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    token INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    body BLOB NOT NULL
                );
                INSERT INTO changeLogByRow (app, token, kind, body) SELECT app, token, kind, body FROM changeLog ORDER BY app, token;
                DROP TABLE changeLog;
                ALTER TABLE changeLogByRow RENAME TO changeLog;
                CREATE UNIQUE INDEX changeLog_app_token ON changeLog (app, token);
                """)
        }
        migrator.registerMigration("v9: a new member recomputes its asset's type only when it could change it") { db in
            // Every indexed file ran the type query (a count of distinct member
            // types) though a file of its asset's own type changes nothing: a
            // first start of 100,000 files paid it 100,000 times for nothing.
            try db.execute(sql: """
                DROP TRIGGER member_added;
                CREATE TRIGGER member_added AFTER INSERT ON member
                WHEN NEW.mediaType IS NOT (SELECT mediaType FROM asset WHERE rowid = NEW.asset) BEGIN
                    UPDATE asset SET mediaType = (\(typeOf("NEW.asset"))) WHERE rowid = NEW.asset;
                END;
                """)
        }
        migrator.registerMigration("v10: imports from the apps' inboxes") { db in
            // One row per file taken from (or refused in) an inbox. A row not
            // yet `added`, `accepted` or `rejected` is an import under way: the
            // copy is made under `temporaryName` in `album`, and `targetName`
            // is written here before each rename, so a daemon killed at any
            // instant finds at start either the copy to finish or the
            // temporary file to drop, and the inbox file still in place until
            // the import is recorded. Rows of the last day give the quota.
            try db.execute(sql: """
                CREATE TABLE inboxImport (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    sourceName BLOB NOT NULL,
                    sourceDevice INTEGER NOT NULL,
                    sourceInode INTEGER NOT NULL,
                    sourceBirth INTEGER,
                    album TEXT NOT NULL,
                    targetName BLOB,
                    copyInode INTEGER,
                    bytes INTEGER NOT NULL DEFAULT 0,
                    state TEXT NOT NULL,
                    code TEXT,
                    asset TEXT,
                    at INTEGER NOT NULL
                );
                CREATE INDEX inboxImport_app_at ON inboxImport (app, at);
                CREATE INDEX inboxImport_open ON inboxImport (state) WHERE state = 'copying';
                CREATE INDEX inboxImport_source ON inboxImport (app, sourceInode);
                """)
        }
        migrator.registerMigration("v11: one-time picks and the access log") { db in
            // A pick's options (types, limit, order) live with its request. The
            // access log records what an app was handed and when, for the
            // access report (SPEC §9); a pick writes one row per asset.
            try db.execute(sql: """
                ALTER TABLE accessRequest ADD COLUMN options TEXT;
                CREATE TABLE accessLog (
                    id INTEGER PRIMARY KEY,
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    asset TEXT NOT NULL,
                    how TEXT NOT NULL,
                    request INTEGER,
                    at INTEGER NOT NULL
                );
                CREATE INDEX accessLog_app_at ON accessLog (app, at);
                """)
        }
        migrator.registerMigration("v12: grants that end") { db in
            // A grant with an end keeps it beside the grant (seconds since the
            // epoch; NULL: it lasts). A timed status keeps the status it returns
            // to, so the person's earlier decision comes back by itself.
            try db.execute(sql: """
                ALTER TABLE selectedAsset ADD COLUMN endsAt INTEGER;
                ALTER TABLE selectedAlbum ADD COLUMN endsAt INTEGER;
                ALTER TABLE app ADD COLUMN readWriteEndsAt INTEGER;
                ALTER TABLE app ADD COLUMN readWriteReturnsTo TEXT;
                ALTER TABLE app ADD COLUMN addOnlyEndsAt INTEGER;
                ALTER TABLE app ADD COLUMN addOnlyReturnsTo TEXT;
                CREATE INDEX selectedAsset_endsAt ON selectedAsset (endsAt) WHERE endsAt IS NOT NULL;
                CREATE INDEX selectedAlbum_endsAt ON selectedAlbum (endsAt) WHERE endsAt IS NOT NULL;
                """)
        }
        migrator.registerMigration("v13: location per app, and what each file was found to hold") { db in
            // Apps registered before keep seeing what they saw (`precise`): an
            // upgrade changes no view. A new app is `none` unless told otherwise.
            // A location check holds for the content it was made for (inode,
            // size, mtime); `derived` names the derivative's inode and size.
            try db.execute(sql: """
                ALTER TABLE app ADD COLUMN location TEXT NOT NULL DEFAULT 'precise';
                CREATE TABLE locationCheck (
                    member INTEGER PRIMARY KEY REFERENCES member(rowid) ON DELETE CASCADE,
                    inode INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    outcome TEXT NOT NULL,
                    derivedInode INTEGER,
                    derivedSize INTEGER,
                    problem TEXT
                );
                """)
        }
        migrator.registerMigration("v14: rule grants and capture times") { db in
            // takenAt: when the file was taken (seconds since the epoch), NULL
            // until it is looked at, and again when its content changes.
            // A rule grant is a span of capture times, optionally of one type.
            try db.execute(sql: """
                ALTER TABLE member ADD COLUMN takenAt INTEGER;
                CREATE TABLE selectedRule (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app TEXT NOT NULL REFERENCES app(id) ON DELETE CASCADE,
                    takenFrom INTEGER NOT NULL,
                    takenTo INTEGER NOT NULL,
                    mediaType TEXT
                );
                CREATE INDEX selectedRule_app ON selectedRule (app);
                """)
        }
        migrator.registerMigration("v15: each app's own asset IDs") { db in
            // A random key per app names its assets (AppAssetIDs). The IDs an
            // app knew change, so every app is told to reload: its tokens so
            // far fall below its history floor (as for an app added again).
            try db.execute(sql: """
                ALTER TABLE app ADD COLUMN idKey BLOB;
                UPDATE app SET idKey = randomblob(16);
                UPDATE app SET historyFloor = lastToken + 1, lastToken = lastToken + 1;
                """)
        }
        migrator.registerMigration("v16: a location check that depends on the file's mode") { db in
            // mode: set when the outcome depends on the permission bits (the owner
            // may not read the file), so a chmod makes the check stale; NULL otherwise.
            try db.execute(sql: "ALTER TABLE locationCheck ADD COLUMN mode INTEGER;")
        }
        migrator.registerMigration("v17: installed Flatpak apps whose Pictures folder is their view") { db in
            // flatpakPictures: the view lives at ~/.var/app/APP/Pictures as copies or clones.
            // picturesOverride: JSON of exactly what photolibd added to the app's user override
            // (`PicturesOverride`), so that it removes exactly that; NULL when it added nothing.
            try db.execute(sql: """
                ALTER TABLE app ADD COLUMN flatpakPictures INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE app ADD COLUMN picturesOverride TEXT;
                """)
        }
        migrator.registerMigration("v18: where each photo was taken") { db in
            // place: NULL until the file is looked at, and again after its content changes; then a
            // place's ID (GeoNames' city), 0 when it says no place (or none is near), -1 when it
            // could not be read (looked at again at the next start). A place keeps its names in
            // every language, folded for search, one per line, between newlines.
            try db.execute(sql: """
                ALTER TABLE member ADD COLUMN place INTEGER;
                CREATE INDEX member_place ON member (place);
                CREATE TABLE place (
                    id INTEGER PRIMARY KEY,
                    city TEXT NOT NULL,
                    region TEXT NOT NULL,
                    country TEXT NOT NULL,
                    countryCode TEXT NOT NULL,
                    names TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v19: whether captions and people leave with an app's picks") { db in
            // 0: removed (the default, as iOS's picker does for captions); 1: shared.
            try db.execute(sql: "ALTER TABLE app ADD COLUMN captions INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v20: each file's name as a search compares it") { db in
            // folded: the name with ASCII letters in lower case (`NameFolding`; SQLite's lower()
            // without ICU folds exactly those), kept so that a search over 100,000 names is a
            // byte comparison rather than a lower() and a copy of every name.
            try db.execute(sql: """
                ALTER TABLE member ADD COLUMN folded BLOB NOT NULL DEFAULT x'';
                UPDATE member SET folded = CAST(lower(CAST(name AS TEXT)) AS BLOB);
                """)
        }
        migrator.registerMigration("v21: a member's update recomputes its assets' types only when its asset or type changed") { db in
            // updateMember sets every column, mediaType among them, so a rename, a move between
            // albums or a chmod ran this trigger's delete check and three type queries to change
            // nothing (10,000 moves: 0.19 -> 0.11 s in SQLite alone). Same body, run only when needed.
            try db.execute(sql: """
                DROP TRIGGER member_moved;
                CREATE TRIGGER member_moved AFTER UPDATE OF asset, mediaType ON member
                WHEN OLD.asset IS NOT NEW.asset OR OLD.mediaType IS NOT NEW.mediaType BEGIN
                    DELETE FROM asset WHERE rowid = OLD.asset AND NOT EXISTS (SELECT 1 FROM member WHERE member.asset = OLD.asset);
                    UPDATE asset SET mediaType = (\(typeOf("OLD.asset"))) WHERE rowid = OLD.asset;
                    UPDATE asset SET mediaType = (\(typeOf("NEW.asset"))) WHERE rowid = NEW.asset;
                END;
                """)
        }
        migrator.registerMigration("v22: videos are looked at again for their own position") { db in
            // Until now a video's place came from its Exif or XMP alone; a phone's video says where it
            // was taken in its own atom (Apple's ISO 6709 key, ©xyz), which the place finder now reads.
            // Those found nowhere are looked at again; places found stay.
            try db.execute(sql: "UPDATE member SET place = NULL WHERE mediaType = 'video' AND place = 0")
        }
        migrator.registerMigration("v23: only the files waiting for a look at their place are indexed by it") { db in
            // member_place indexed every file's place, for the place finder's "place IS NULL" alone (a
            // search by place scans the table, its names with it). Recording a pass's findings moved
            // each row from the NULL key to its place's; a partial index only loses the row. A places
            // pass's SQLite time -25% (sqlite3 shell, 100,000 rows), and ~10 bytes a file less. The files
            // that could not be read (-1), looked at again at each start, keep an index of their own: without
            // it that start-up update scans every row (7-20 ms at 100,000); it holds only those few.
            try db.execute(sql: """
                DROP INDEX member_place;
                CREATE INDEX member_placeless ON member (place) WHERE place IS NULL;
                CREATE INDEX member_placeUnreadable ON member (place) WHERE place = -1;
                """)
        }
        migrator.registerMigration("v24: a new asset's ID is a keyed permutation of its row number") { db in
            // An ID was 80 random bits under a unique index: each insert checked it against every other
            // (a random key's B-tree, cold pages at 100,000 and more) and returned it. A new asset now
            // stores none: its ID is `AssetIDPermutation` of its row number under the library's key, kept
            // here, and an ID finds its row by the inverse. The IDs assets have now stay theirs (apps and
            // people may have kept them), under a unique index of those alone.
            var generator = SystemRandomNumberGenerator()
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'asset'")
            // Triggers name the asset table: dropped while it is rebuilt (a rename checks every trigger), made
            // again as they were.
            let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger["name"] as String)") }
            try db.execute(sql: """
                CREATE TABLE library (
                    only INTEGER PRIMARY KEY CHECK (only = 1),
                    assetIDKey BLOB NOT NULL CHECK (length(assetIDKey) = 16)
                );
                CREATE TABLE assetRebuilt (
                    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT,
                    mediaType TEXT NOT NULL
                );
                INSERT INTO assetRebuilt (rowid, id, mediaType) SELECT rowid, id, mediaType FROM asset;
                DROP TABLE asset;
                ALTER TABLE assetRebuilt RENAME TO asset;
                CREATE UNIQUE INDEX asset_id ON asset (id) WHERE id IS NOT NULL;
                """)
            try db.execute(sql: "INSERT INTO library (only, assetIDKey) VALUES (1, ?)",
                           arguments: [Data(AssetIDPermutation.randomKey(using: &generator))])
            // AUTOINCREMENT's promise (a row number never reused) holds across the rebuild.
            if let sequence {
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'asset'", arguments: [sequence])
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_sequence WHERE name = 'asset'") == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('asset', ?)", arguments: [sequence])
                }
            }
            for trigger in triggers { try db.execute(sql: trigger["sql"] as String) }
        }
        migrator.registerMigration("v25: a new member file pays for no index or trigger it does not need") { db in
            // member_inode served only a batch's match of vanished files against the files it inserted,
            // which now reads the rows above the batch's watermark (a range of the rowid key) when there
            // are vanished files at all. member_added recomputed the type of a new member's asset, which
            // only a member joining an asset that has others can change: `insertMember` does that itself.
            // Every file of a first start paid for both (sqlite3 shell, 100,000 rows: -12% and more).
            try db.execute(sql: """
                DROP INDEX member_inode;
                DROP TRIGGER member_added;
                """)
        }
        migrator.registerMigration("v26: the views' directory stamps a clean stop leaves for the next start") { db in
            // `ViewStamps`: written at a clean stop, read and deleted in the start's first transaction.
            // No reference to the app: the rows exist only while the daemon is stopped.
            try db.execute(sql: """
                CREATE TABLE viewStampEpoch (
                    only INTEGER PRIMARY KEY CHECK (only = 1),
                    sentinel INTEGER NOT NULL,
                    fingerprint TEXT NOT NULL
                );
                CREATE TABLE viewStamp (
                    app TEXT NOT NULL,
                    album INTEGER NOT NULL,
                    device INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    btime INTEGER,
                    ctime INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    PRIMARY KEY (app, album)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v27: the digests of the albums' rows a clean stop leaves for the next start") { db in
            // `AlbumDigests`: written at a clean stop, read and deleted in the start's first transaction.
            // No reference to the album: the rows exist only while the daemon is stopped.
            try db.execute(sql: """
                CREATE TABLE albumDigestEpoch (
                    only INTEGER PRIMARY KEY CHECK (only = 1),
                    k0 INTEGER NOT NULL,
                    k1 INTEGER NOT NULL,
                    fingerprint TEXT NOT NULL
                );
                CREATE TABLE albumDigest (
                    album INTEGER PRIMARY KEY,
                    low INTEGER NOT NULL,
                    high INTEGER NOT NULL,
                    entries INTEGER NOT NULL
                );
                """)
        }
        return migrator
    }

    /// SQL for an asset's type from its members' (`MediaType.ofAsset`).
    static func typeOf(_ asset: String) -> String {
        "SELECT CASE WHEN count(DISTINCT mediaType) > 1 THEN 'live' ELSE min(mediaType) END FROM member WHERE member.asset = \(asset)"
    }
}
