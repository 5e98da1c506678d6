import Foundation
import GRDB
public import PhotoLibCore

extension StoreTransaction {
    /// Every album, for building the in-memory `AlbumTree`.
    public func albumTree() throws -> AlbumTree {
        var tree = AlbumTree()
        // Parents before children: a child's id is always larger than its
        // parent's when created, but moves can break that, so insert by depth.
        let rows = try Row.fetchAll(db, sql: "SELECT id, parent, name FROM album WHERE parent IS NOT NULL")
        var pending: [(Int64, Int64, FileName)] = rows.compactMap { row in
            let name: Data = row["name"]
            guard let file = FileName(bytes: Array(name)) else { return nil }
            return (row["id"], row["parent"], file)
        }
        while !pending.isEmpty {
            var rest: [(Int64, Int64, FileName)] = []
            for entry in pending {
                if tree.contains(entry.1) {
                    tree.insert(id: entry.0, parent: entry.1, name: entry.2)
                } else {
                    rest.append(entry)
                }
            }
            if rest.count == pending.count { break }  // orphans: cannot happen with foreign keys
            pending = rest
        }
        return tree
    }

    public func insertAlbum(parent: AlbumTree.ID, name: FileName) throws -> AlbumTree.ID {
        // Prepared once per connection (`cachedStatement`): a first start makes an album row per directory, and
        // preparing the statement each time was half of what those rows cost.
        try db.cachedStatement(sql: "INSERT INTO album (parent, name) VALUES (?, ?)").execute(arguments: [parent, Data(name.bytes)])
        return db.lastInsertedRowID
    }

    public func moveAlbum(_ id: AlbumTree.ID, parent: AlbumTree.ID, name: FileName) throws {
        try db.cachedStatement(sql: "UPDATE album SET parent = ?, name = ? WHERE id = ?").execute(arguments: [parent, Data(name.bytes), id])
    }

    /// Deletes an album; its sub-albums, assets and selections go with it.
    public func deleteAlbum(_ id: AlbumTree.ID) throws {
        try db.cachedStatement(sql: "DELETE FROM album WHERE id = ?").execute(arguments: [id])
    }

    public func albumCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) - 1 FROM album") ?? 0
    }
}
