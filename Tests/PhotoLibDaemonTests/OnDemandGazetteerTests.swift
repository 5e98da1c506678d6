import Foundation
import Synchronization
import PhotoLibCore
import PhotoLibStore
import PhotoLibGeoNames
@testable import PhotoLibDaemon
import Testing

/// A places pass loads the gazetteer only for a file that says where it was taken, once, whatever
/// the number of threads looking.
@Suite("The places pass's gazetteer, on demand")
struct OnDemandGazetteerTests {
    static let rennes = GazetteerEntry(id: 2_983_990, city: "Rennes", region: "Brittany Region", regionCode: "53", country: "France",
                                       countryCode: "FR", coordinate: GeoCoordinate(latitude: 48.11198, longitude: -1.67429)!,
                                       population: 209_375)

    @Test("files that say nowhere (here, not even photos' metadata) are looked at without loading it")
    func notLoadedForFilesWithoutLocation() throws {
        let library = try TemporaryLibrary()
        for index in 0..<40 { try library.write("Screens/shot\(index).jpg", "not a JPEG at all") }
        try library.scan()
        let loads = Atomic<Int>(0)
        let gazetteer = OnDemandGazetteer { loads.add(1, ordering: .relaxed); return Gazetteer([Self.rennes]) }
        let members = try library.store.read { try $0.membersWithoutPlace(after: 0, limit: 100) }
        #expect(members.count == 40)
        let found = try PlaceFinder.look(at: members, albums: library.index.albums, library: library.root, in: gazetteer)
        #expect(found.count == 40 && found.allSatisfy { $0.finding != .unreadable })
        #expect(loads.load(ordering: .relaxed) == 0)
        #expect(!gazetteer.letGo())
    }

    @Test("asked for by many threads at once, it is loaded once and shared; let go, it is loaded again when asked")
    func loadedOnce() throws {
        let loads = Atomic<Int>(0)
        let gazetteer = OnDemandGazetteer { loads.add(1, ordering: .relaxed); return Gazetteer([Self.rennes]) }
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            #expect((try? gazetteer.get())?.nearest(GeoCoordinate(latitude: 48.1, longitude: -1.68)!)?.id == Self.rennes.id)
        }
        #expect(loads.load(ordering: .relaxed) == 1)
        #expect(gazetteer.letGo())
        _ = try gazetteer.get()
        #expect(loads.load(ordering: .relaxed) == 2)
    }

    @Test("a load that fails is tried once for the pass, its problem kept and given to every look, never an empty gazetteer")
    func failedLoad() {
        let loads = Atomic<Int>(0)
        let missing = LibraryLoadProblem(library: "libgeonames.so.0", reason: "cannot open shared object file", package: "libgeonames0")
        let gazetteer = OnDemandGazetteer { () throws(LibraryLoadProblem) -> Gazetteer in
            loads.add(1, ordering: .relaxed)
            throw missing
        }
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            #expect(throws: missing) { try gazetteer.get() }
        }
        #expect(loads.load(ordering: .relaxed) == 1)
        #expect(gazetteer.problem == missing)
        #expect("\(missing)".contains("install it: Debian's package is libgeonames0"))
        #expect(!gazetteer.letGo())
    }

    @Test("the real libgeonames, loaded with dlopen, holds its cities")
    func realLibrary() throws {
        let cities = try GeoNamesData.cities()
        #expect(cities.count > 20_000)
        #expect(cities.contains { $0.id == Self.rennes.id && $0.city == "Rennes" })
    }
}
