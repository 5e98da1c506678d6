import Foundation
import Glibc
import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibSystem
import Testing

/// The incremental step gathers an app's links across a batch and makes them
/// together; these are the orders that must still come out right.
@Suite("The incremental step's gathered links")
struct IncrementalLinkTests {
    @Test("an entry moved, then its old name reused by another file, then 100 new files in one album: each entry is its own file")
    func orderHolds() throws {
        let temporary = try TemporaryViews(["lib/Album", "lib/Burst"])
        let root = temporary.root
        var row: Int64 = 0
        func file(_ path: String) throws -> LocatedAsset {
            try Data("photo \(path)".utf8).write(to: URL(fileURLWithPath: root + "/lib/" + path))
            var st = stat()
            stat(root + "/lib/" + path, &st)
            row += 1
            return asset(path, inode: UInt64(st.st_ino), row: row)
        }
        func asset(_ path: String, inode: UInt64, row: Int64) -> LocatedAsset {
            let facts = FileFacts(device: 1, inode: inode, size: 10, modificationTime: 1, permissions: 0o644)
            let member = LocatedMember(rowID: row, path: RelativePath(escaped: path)!, mediaType: .image, file: facts)
            return LocatedAsset(rowID: row, id: AssetID.fromBits(high: UInt64(row), low: 0), mediaType: .image, members: [member],
                                ancestry: [AlbumTree.rootID])
        }
        // The first file, linked as a.jpg, then renamed to b.jpg; a second file then takes the name a.jpg.
        let first = try file("Album/a.jpg")
        rename(root + "/lib/Album/a.jpg", root + "/lib/Album/b.jpg")
        let moved = asset("Album/b.jpg", inode: first.members[0].file.inode, row: first.rowID)
        let second = try file("Album/a.jpg")
        var changes: [ViewChange] = [.asset(old: nil, new: first), .asset(old: first, new: moved), .asset(old: nil, new: second)]
        var burst: [String: UInt64] = [:]
        for index in 0..<100 {
            let added = try file("Burst/IMG_\(index).jpg")
            burst["IMG_\(index).jpg"] = added.members[0].file.inode
            changes.append(.asset(old: nil, new: added))
        }

        let maintainer = temporary.maintainer
        var generator = SystemRandomNumberGenerator()
        let app = AppRecord(id: AppID("org.example.Full")!, uid: getuid(), purpose: "", readWrite: .authorized, addOnly: .notDetermined,
                            viewName: FileName("v")!, location: .precise, assetIDs: AppAssetIDs.random(using: &generator))
        let context = AppViewContext(app: app, selectedAssets: [], selectedAlbums: [])
        #expect(maintainer.apply(changes, to: [context]).isEmpty, "no view needs a full reconcile")

        func inode(_ path: String) -> UInt64? {
            var st = stat()
            return stat(root + "/views/v/" + path, &st) == 0 ? UInt64(st.st_ino) : nil
        }
        #expect(inode("Album/b.jpg") == first.members[0].file.inode, "the moved file under its new name")
        #expect(inode("Album/a.jpg") == second.members[0].file.inode, "the old name is the second file, not the first")
        let entries = try FileManager.default.contentsOfDirectory(atPath: root + "/views/v/Burst")
        #expect(entries.count == 100)
        for (name, expected) in burst { #expect(inode("Burst/" + name) == expected, "\(name) is its original") }
    }
}
