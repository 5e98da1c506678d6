import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// A batch's look at the library, made off the engine: the one step of a watch batch that
// waits on the library's filesystem before anything is decided.
extension Engine {
    /// What `batch` will make the index look at, looked at on a thread of its own through
    /// descriptors of the probe's own (`LibraryProbe`), as the index stands now; and on the same
    /// thread, the copies without location `job` asks for, handed to the catalog for the transaction to adopt.
    func probeLibrary(for batch: [WatchEvent], lookingAhead job: LookAheadJob? = nil) async -> LibraryProbe {
        let basis = index.probeBasis
        guard isolatesLibrary else { return probeHere(batch, basis: basis, lookingAhead: job) }
        let root: FileDescriptor
        let derivatives: FileDescriptor?
        do {
            // Duplicates, made here: they touch no filesystem, and the probe reopens the root on its own thread.
            root = try Directory.duplicate(index.access.root)
            do {
                derivatives = try job.map { _ in try Directory.duplicate(views.derivatives.directory) }
            } catch {
                root.close()
                throw error
            }
        } catch {
            logger.warning("Could not hand the library to a thread of its own (\(error)); looking at it on the engine's.")
            return probeHere(batch, basis: basis, lookingAhead: job)
        }
        let (looker, known, logger, store) = (libraryLooker, views.derivatives.lookedAheadKeys, logger, store)
        let (probe, found, looked) = await libraryLane.run { () -> (LibraryProbe, [FileIdentityKey: LookedAhead], Int) in
            let looking = looker(root)
            let probe = LibraryProbe.gather(batch, basis: basis, looking: looking, indexedNames: LibraryIndex.indexedNamesReader(store, logger: logger))
            guard let job, let derivatives else { return (probe, [:], 0) }
            defer { derivatives.close() }
            let (found, looked) = job.perform(looking: looking, derivatives: derivatives, known: known, logger: logger)
            return (probe, found, looked)
        }
        views.derivatives.receive(found)
        if looked > 0 { logger.debug("Looked ahead at \(looked) files for apps without location.") }
        return probe
    }
}

extension Engine {
    /// The same look, made here through the index's own descriptors (fresh ones: a directory opened
    /// before a chmod lists whatever its mode is now).
    private func probeHere(_ batch: [WatchEvent], basis: LibraryProbe.Basis, lookingAhead job: LookAheadJob?) -> LibraryProbe {
        index.access.invalidate()
        if let job {
            let (found, looked) = job.perform(looking: index.access, derivatives: views.derivatives.directory,
                                              known: views.derivatives.lookedAheadKeys, logger: logger)
            views.derivatives.receive(found)
            if looked > 0 { logger.debug("Looked ahead at \(looked) files for apps without location.") }
        }
        return LibraryProbe.gather(batch, basis: basis, looking: index.access, indexedNames: LibraryIndex.indexedNamesReader(store, logger: logger))
    }

    /// Looks ahead here, on the engine (an import, which holds the library's turn and its file open already).
    func lookAheadNow(_ batch: [WatchEvent], for contexts: [AppViewContext]) {
        guard let job = index.lookAheadJob(batch, for: contexts) else { return }
        let (found, looked) = job.perform(looking: index.access, derivatives: views.derivatives.directory,
                                          known: views.derivatives.lookedAheadKeys, logger: logger)
        views.derivatives.receive(found)
        logger.debug("Looked ahead at \(looked) files for apps without location.")
    }

    /// The walk of a full scan (`LibraryIndex.walk`), on a thread of its own.
    func walkLibrary() async throws -> LibraryProbe {
        let (basis, daemonUID, store, looker) = (index.probeBasis, ownerUID, store, libraryLooker)
        let root = try Directory.duplicate(index.access.root)
        let started = ContinuousClock.now
        let walked = await libraryLane.run {
            Result { try LibraryIndex.walk(root: root, basis: basis, daemonUID: daemonUID, store: store, looker: looker) }
        }
        logger.debug("The scan's walk took \(ContinuousClock.now - started).")
        return try walked.get()
    }

    /// Waits until no other change writes the library's rows (`LibraryTurn`), and takes the turn.
    func takeLibraryTurn() async {
        if libraryTurn.take() { return }
        await withCheckedContinuation { libraryTurn.wait($0) }
    }

    /// Hands the turn to the next change waiting for it.
    func endLibraryTurn() {
        libraryTurn.end()
    }
}
