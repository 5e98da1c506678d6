import PhotoLibCore
import PhotoLibStore
import Testing

/// A places pass's findings are recorded many to a statement: each on its own row, and only
/// where the file is still the one looked at.
@Suite("Places recorded, many to a statement")
struct RecordPlacesTests {
    func file(_ index: Int) -> DirectoryPlan.NewFile {
        DirectoryPlan.NewFile(name: FileName("IMG_\(index).jpg")!, mediaType: .image,
                              facts: FileFacts(device: 9, inode: UInt64(1_000 + index), size: Int64(index), modificationTime: Int64(10 * index),
                                               permissions: 0o644),
                              refusal: nil)
    }

    @Test("300 findings (statements of 256, 32, 8 and 4): each on its own row; a file changed since it was looked at keeps none")
    func eachOnItsRow() throws {
        let store = try Store(inMemory: ())
        let files = (0..<300).map(file)
        let members = try store.write { tx in try tx.insertNewAssets(album: AlbumTree.rootID, files: files) }.map(\.primary)
        let changed = Set(100..<110)
        let results = members.enumerated().map { index, member in
            var facts = member.file
            if changed.contains(index) { facts.size += 1 }  // looked at before its last edit
            return PlaceResult(member: member.rowID, file: facts, finding: index % 3 == 0 ? .unreadable : .nowhere)
        }
        #expect(try store.write { tx in try tx.recordPlaces(results) } == 290)
        let waiting = try store.read { tx in try tx.membersWithoutPlace(limit: 1_000) }
        #expect(waiting.map(\.rowID) == changed.sorted().map { members[$0].rowID }, "only the changed files wait for a look")
        // Unreadable ones (-1) are looked at again; those found nowhere (0) are not: each row got its own finding.
        try store.write { tx in try tx.retryUnreadablePlaces() }
        let again = Set(try store.read { tx in try tx.membersWithoutPlace(limit: 1_000) }.map(\.rowID))
        let expected = Set((0..<300).filter { changed.contains($0) || $0 % 3 == 0 }.map { members[$0].rowID })
        #expect(again == expected)
        #expect(try store.write { tx in try tx.recordPlaces([]) } == 0)
    }
}
