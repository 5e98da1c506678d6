import Logging
import Synchronization
import PhotoLibCore
import PhotoLibStore
@testable import PhotoLibDaemon
import Testing

/// A places pass reads the albums once, and again when a file is not where they say: an album
/// renamed while the pass runs does not leave its files unread until the next start.
@Suite("The places pass over many chunks")
struct PlaceFinderTests {
    @Test("an album renamed between two chunks: its files are found by its new name, none is left unread")
    func albumRenamedDuringThePass() async throws {
        let library = try TemporaryLibrary()
        // Two full chunks and a part of a third in "Camera", then "Trip", whose rows come last.
        let first = 2 * PlaceFinder.chunk + 10
        for index in 0..<first { try library.write("Camera/IMG_\(index).jpg", "not a JPEG") }
        try library.scan()
        for index in 0..<5 { try library.write("Trip/IMG_\(index).jpg", "not a JPEG") }
        try library.scan()
        let trip = try #require(library.index.albums.album(at: TemporaryLibrary.path("Trip")))
        let finder = PlaceFinder(library: library.root, store: library.store, logger: Logger(label: "places-test"))
        let recordings = Mutex(0)
        let looked = try await finder.pass { results, _ in
            // The first chunk's findings are recorded while the second is looked at; the third is read after.
            if recordings.withLock({ $0 += 1; return $0 }) == 1 {
                try library.move("Trip", "Holidays")
                try library.store.write { tx in try tx.moveAlbum(trip, parent: AlbumTree.rootID, name: FileName("Holidays")!) }
            }
            try library.store.write { tx in _ = try tx.recordPlaces(results) }
        }
        #expect(looked == first + 5)
        #expect(recordings.withLock { $0 } == 3)
        try library.store.write { tx in try tx.retryUnreadablePlaces() }
        #expect(try library.store.read { try $0.membersWithoutPlace(limit: 10) }.isEmpty, "every file was read, those of the renamed album too")
    }
}
