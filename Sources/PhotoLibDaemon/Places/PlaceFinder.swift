import Dispatch
import Foundation
import Logging
import Synchronization
import PhotoLibCore
import PhotoLibGeoNames
import PhotoLibMetadata
import PhotoLibStore
import PhotoLibSystem

/// Names where each photo was taken, in the background: reads the location its metadata holds,
/// finds the nearest place in GeoNames' gazetteer (offline: `GeoNamesData`), and hands the
/// findings to the engine, which records them in one write transaction.
///
/// Runs after the library is indexed and after each change that brings new or edited files, a
/// chunk at a time, so the first start and the watch path never wait for it. The gazetteer is
/// loaded for a pass when a file first says where it was taken, and let go after it (a few MB);
/// the catalogs of names in every language only while new places are named, and never kept.
final class PlaceFinder: Sendable {
    let library: String
    let store: Store
    let logger: Logger
    /// How many files one chunk looks at before the engine records them.
    static let chunk = 1024
    /// Set when the daemon is asked to stop: a pass ends after the chunk it is in, not after the library.
    private let stopping = Atomic<Bool>(false)

    init(library: String, store: Store, logger: Logger) {
        self.library = library
        self.store = store
        self.logger = logger
    }

    /// Ends the pass under way after its chunk (graceful shutdown does not cancel the task it runs in).
    func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    /// Looks at every file not looked at yet; returns how many it looked at.
    ///
    /// While the engine records one chunk's findings, the next chunk is being looked at: the files'
    /// reads and the write transaction overlap, and both cores stay busy.
    @discardableResult
    func pass(recording record: (_ results: [PlaceResult], _ newPlaces: [PlaceRecord]) async throws -> Void) async throws -> Int {
        let gazetteer = OnDemandGazetteer()
        var looked = 0, named = 0
        let started = ContinuousClock.now
        var found: [PlaceResult]?
        // Read once for the pass, and again only when a look could not find a file (`look`): reading
        // a thousand albums' rows for every chunk was a tenth of a pass over 100,000 photos.
        var albums = try store.read { try $0.albumTree() }
        var next = try chunk(after: 0)
        while !Task.isCancelled && !stopping.load(ordering: .relaxed), !next.isEmpty {
            let current = next
            async let looking = lookAgainIfMissed(current, albums: albums, in: gazetteer)
            if let previous = found {
                named += try await recordFindings(previous, recording: record)
                looked += previous.count
            }
            next = try chunk(after: current.last!.rowID)
            (found, albums) = await looking
        }
        if let last = found {
            named += try await recordFindings(last, recording: record)
            looked += last.count
        }
        if let problem = gazetteer.problem {
            logger.warning("Places cannot be named: \(problem). Photos that say where they were taken are looked at again at the next start.")
        }
        if looked > 0 {
            logger.info("Places: looked at \(looked) files in \(ContinuousClock.now - started); \(named) new places named.")
        }
        if gazetteer.letGo() {
            // The gazetteer and the chunks' rows are freed now; hand them back to the kernel, as after a
            // burst, rather than keep the pass's peak until the next one (it follows every burst of new files).
            ProcessIdentity.releaseFreeMemory()
        }
        return looked
    }

    /// The next files to look at, as the store has them now.
    private func chunk(after rowID: Int64) throws -> [MemberRecord] {
        try store.read { tx in try tx.membersWithoutPlace(after: rowID, limit: Self.chunk) }
    }

    /// One chunk's findings, read off Swift's few task threads: each look opens and reads a file.
    /// A file that could not be found by the albums as they were may be in an album made or renamed
    /// since they were read: those are looked at once more by the albums as they are now, which are
    /// returned for the next chunk.
    private func lookAgainIfMissed(_ members: [MemberRecord], albums: AlbumTree, in gazetteer: OnDemandGazetteer) async
        -> (found: [PlaceResult], albums: AlbumTree) {
        var found = await look(at: members, albums: albums, in: gazetteer)
        let missed = found.indices.filter { found[$0].finding == PlaceFinding.unreadable }
        guard !missed.isEmpty else { return (found, albums) }
        let current: AlbumTree
        do {
            current = try store.read { try $0.albumTree() }
        } catch {
            logger.warning("Cannot read the albums again to look for \(missed.count) files once more: \(error); they are looked at at the next start.")
            return (found, albums)
        }
        let again = await look(at: missed.map { members[$0] }, albums: current, in: gazetteer)
        for (index, result) in zip(missed, again) { found[index] = result }
        return (found, current)
    }

    private func look(at members: [MemberRecord], albums: AlbumTree, in gazetteer: OnDemandGazetteer) async -> [PlaceResult] {
        let library = library
        let outcome = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: Result { () throws(SystemCallError) in
                    try Self.look(at: members, albums: albums, library: library, in: gazetteer)
                })
            }
        }
        switch outcome {
        case .success(let found):
            return found
        case .failure(let error):
            // Not "no place": each is looked at again at the next start, and the log says why.
            logger.warning("Cannot open the library \(library) to see where photos were taken: \(error); tried again at the next start.")
            return members.map { PlaceResult(member: $0.rowID, file: $0.file, finding: .unreadable) }
        }
    }

    /// Names the places found for the first time and has the engine record the findings; returns how many places were new.
    private func recordFindings(_ results: [PlaceResult], recording record: (_ results: [PlaceResult], _ newPlaces: [PlaceRecord]) async throws -> Void)
        async throws -> Int {
        let known = try store.read { try $0.placeIDs() }
        var newEntries: [Int64: GazetteerEntry] = [:]
        for result in results {
            if case .place(let entry) = result.finding, !known.contains(entry.id) { newEntries[entry.id] = entry }
        }
        var newPlaces: [PlaceRecord] = []
        if !newEntries.isEmpty {
            let (catalogs, unreadable) = GeoNamesData.catalogs()
            for problem in unreadable.prefix(3) { logger.warning("Place names in one language cannot be read: \(problem).") }
            newPlaces = newEntries.values.sorted { $0.id < $1.id }.map { PlaceRecord($0, catalogs: catalogs) }
        }
        try await record(results, newPlaces)
        return newPlaces.count
    }

    /// Each file's finding; a file that cannot be opened or read now is `unreadable`, never `nowhere`.
    /// Throws when the library itself cannot be opened.
    ///
    /// The chunk is cut into a slice per core, each read on a thread of its own with its own
    /// descriptors (`LibraryAccess` is one thread's), at idle priority (`BackgroundThreads`): each
    /// look is mostly waiting on a read and parsing a header, and changes to the library come first.
    static func look(at members: [MemberRecord], albums: AlbumTree, library: String, in gazetteer: OnDemandGazetteer)
        throws(SystemCallError) -> [PlaceResult] {
        let slices = max(1, min(ProcessInfo.processInfo.activeProcessorCount, members.count / 32))
        let size = (members.count + slices - 1) / max(1, slices)
        let found = Mutex<[Int: Result<[PlaceResult], SystemCallError>]>([:])
        BackgroundThreads.run(count: slices, name: "photolibd-places") { slice in
            let part = members[min(members.count, slice * size)..<min(members.count, (slice + 1) * size)]
            let outcome = Result { () throws(SystemCallError) -> [PlaceResult] in
                let access = LibraryAccess(root: try Directory.open(path: library))
                defer { access.invalidate() }
                return part.map { member in
                    PlaceResult(member: member.rowID, file: member.file, finding: finding(member, albums: albums, access: access, gazetteer: gazetteer))
                }
            }
            found.withLock { $0[slice] = outcome }
        }
        var results: [PlaceResult] = []
        results.reserveCapacity(members.count)
        for slice in 0..<slices {
            switch found.withLock({ $0[slice] }) {
            case .success(let part)?: results += part
            case .failure(let error)?: throw error
            case nil: break
            }
        }
        return results
    }

    private static func finding(_ member: MemberRecord, albums: AlbumTree, access: LibraryAccess, gazetteer: OnDemandGazetteer) -> PlaceFinding {
        guard let album = albums.path(of: member.album), let directory = access.directory(album) else { return .unreadable }
        let fd: FileDescriptor
        do {
            fd = try FileCopy.openUntrusted(member.name, in: directory)
        } catch {
            return .unreadable
        }
        defer { fd.close() }
        do {
            guard let coordinate = try LocationStripper.coordinate(fd) else { return .nowhere }
            return PlaceFinding.decide(coordinate, in: try gazetteer.get())
        } catch {
            // Not "nowhere": a file that could not be read, or a place that could not be named for want
            // of the gazetteer (pass() says why), is looked at again at the next start.
            return .unreadable
        }
    }
}
