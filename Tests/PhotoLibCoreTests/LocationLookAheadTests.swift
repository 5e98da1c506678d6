import PhotoLibCore
import Testing

@Suite("Which files are looked at for a location before their transaction")
struct LocationLookAheadTests {
    func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }

    @Test("written, moved-in, atomically saved media and those whose attributes changed are looked at once each; renames, creations, hidden and non-media names are not")
    func files() {
        let batch: [WatchEvent] = [
            .fileCreated(path("a.jpg")),  // not complete until its close
            .fileWritten(path("a.jpg")),
            .fileWritten(path("a.jpg")),
            .movedIn(path("Trips/b.heic"), isDirectory: false),
            .movedIn(path("Trips/2024"), isDirectory: true),
            .moved(from: path("c.jpg"), to: path("d.jpg"), isDirectory: false),  // the same member renamed: its check stands
            .moved(from: path(".e.jpg.tmp"), to: path("e.jpg"), isDirectory: false),  // an atomic save: new content
            .moved(from: path(".Trash-1000/files/f.jpg"), to: path("f.jpg"), isDirectory: false),  // back from the trash
            .fileWritten(path("notes.txt")),
            .fileWritten(path(".thumbnails/g.jpg")),
            .fileWritten(path("h.jpg.part")),
            .attributesChanged(path("Trips/i.jpg")),  // chmod u+r: a withheld photo may be readable now
        ]
        #expect(LocationLookAhead.files(in: batch, policy: .standard)
            == [path("a.jpg"), path("Trips/b.heic"), path("e.jpg"), path("f.jpg"), path("Trips/i.jpg")])
    }

    @Test("directories created or moved in are walked whole; one back from a hidden folder is new; one whose attributes changed is listed again")
    func directories() {
        let batch: [WatchEvent] = [
            .directoryCreated(path("New")),
            .movedIn(path("Trips/Import"), isDirectory: true),
            .moved(from: path(".Trash-1000/files/Old"), to: path("Old"), isDirectory: true),
            .moved(from: path("A"), to: path("B"), isDirectory: true),  // a rename: its files are indexed already
            .directoryAttributesChanged(path("Locked")),
            .directoryCreated(path(".thumbnails")),
            .fileWritten(path("x.jpg")),
        ]
        #expect(LocationLookAhead.directories(in: batch) == [
            .init(path: path("New"), isNew: true), .init(path: path("Trips/Import"), isNew: true),
            .init(path: path("Old"), isNew: true), .init(path: path("Locked"), isNew: false),
        ])
    }

    @Test("a limited policy may grant a file in a granted album (or below it), any file under a rule, and an indexed file when it holds single selections")
    func mayGrant() {
        let albumGrant = ViewPolicy(layout: .limited, selectedAlbums: [5])
        #expect(albumGrant.mayGrant(fileIn: [9, 5, 1], isIndexed: false))
        #expect(!albumGrant.mayGrant(fileIn: [8, 1], isIndexed: true))
        let singles = ViewPolicy(layout: .limited, selectedAssets: [42])
        #expect(singles.mayGrant(fileIn: [1], isIndexed: true))
        #expect(!singles.mayGrant(fileIn: [1], isIndexed: false), "a new file joins no single selection")
        #expect(ViewPolicy(layout: .full).mayGrant(fileIn: [], isIndexed: false))
        #expect(!ViewPolicy(layout: .empty).mayGrant(fileIn: [1], isIndexed: true))
        #expect(!ViewPolicy(layout: .limited).mayGrant(fileIn: [1], isIndexed: true))
        let rules = ViewPolicy(layout: .limited, selectedRules: [CaptureRule(id: 1, from: 100, to: 200, mediaType: nil)])
        #expect(rules.mayGrant(fileIn: [1], isIndexed: false), "when it was taken is read in the transaction: looked at")
    }
}
