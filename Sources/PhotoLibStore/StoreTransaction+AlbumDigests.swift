import GRDB
public import PhotoLibCore

/// The digests of the albums' rows, between a clean stop and the next start (`AlbumDigests`).
extension StoreTransaction {
    /// Digests every album's rows as they are now under `key`, and keeps the digests (replacing
    /// any kept): a clean stop's, its last write. Returns how many albums were digested.
    @discardableResult
    public func recordAlbumDigests(key: AlbumDigest.Key, fingerprint: String) throws -> Int {
        try db.execute(sql: "DELETE FROM albumDigest; DELETE FROM albumDigestEpoch")
        let tree = try albumTree()
        var digests: [AlbumTree.ID: AlbumDigest] = [:]
        for id in tree.allIDs {
            var digest = AlbumDigest()
            for name in tree.children(of: id).keys { digest.addAlbum(name: name, key: key) }
            digests[id] = digest
        }
        let statement = try db.cachedStatement(sql: "SELECT album, name, device, inode, size, mtime, mode, btime, refusal FROM member")
        let rows = try Row.fetchCursor(statement)
        let row = CurrentRow(statement)
        while try rows.next() != nil {
            let album = row.int64(0)
            // A row whose name cannot be read, or parked outside the tree, matches no listing: its album is compared in full.
            guard let name = row.name(1), digests[album] != nil else {
                digests[album] = nil
                continue
            }
            let facts = FileFacts(device: UInt64(bitPattern: row.int64(2)), inode: UInt64(bitPattern: row.int64(3)),
                                  birthTime: row.optionalInt64(7), size: row.int64(4), modificationTime: row.int64(5),
                                  permissions: UInt32(truncatingIfNeeded: row.int64(6)))
            digests[album]?.addFile(name: name, facts: facts, refusal: row.text(8).flatMap(LinkRefusal.init(rawValue:)), key: key)
        }
        try db.execute(sql: "INSERT INTO albumDigestEpoch (only, k0, k1, fingerprint) VALUES (1, ?, ?, ?)",
                       arguments: [Int64(bitPattern: key.k0), Int64(bitPattern: key.k1), fingerprint])
        let insert = try db.cachedStatement(sql: "INSERT INTO albumDigest (album, low, high, entries) VALUES (?, ?, ?, ?)")
        for (album, digest) in digests {
            try insert.execute(arguments: [album, Int64(bitPattern: digest.low), Int64(bitPattern: digest.high), digest.entries])
        }
        return digests.count
    }

    /// The digests a clean stop left, deleted as they are read: a start that crashes after its
    /// first transaction leaves none, and the next one compares every album. Nil when there were none.
    public func takeAlbumDigests() throws -> AlbumDigests? {
        guard let epoch = try Row.fetchOne(db, sql: "SELECT k0, k1, fingerprint FROM albumDigestEpoch WHERE only = 1") else { return nil }
        var albums: [AlbumTree.ID: AlbumDigest] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT album, low, high, entries FROM albumDigest")
        while let row = try rows.next() {
            albums[row[0]] = AlbumDigest(low: UInt64(bitPattern: row[1] as Int64), high: UInt64(bitPattern: row[2] as Int64), entries: row[3])
        }
        try db.execute(sql: "DELETE FROM albumDigest; DELETE FROM albumDigestEpoch")
        return AlbumDigests(key: AlbumDigest.Key(k0: UInt64(bitPattern: epoch[0] as Int64), k1: UInt64(bitPattern: epoch[1] as Int64)),
                            fingerprint: epoch[2], albums: albums)
    }
}
