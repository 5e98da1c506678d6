import Logging
import PhotoLibCore
import PhotoLibSystem

// A batch's look at the library, made off the engine: the one step of a watch batch that
// waits on the library's filesystem before anything is decided.
extension Engine {
    /// What `batch` will make the index look at, looked at on a thread of its own through
    /// descriptors of the probe's own (`LibraryProbe`), as the index stands now.
    func probeLibrary(for batch: [WatchEvent]) async -> LibraryProbe {
        let basis = index.probeBasis
        let root: FileDescriptor
        do {
            // A duplicate, made here: it touches no filesystem, and the probe reopens it on its own thread.
            root = try Directory.duplicate(index.access.root)
        } catch {
            logger.warning("Could not hand the library to a thread of its own (\(error)); looking at it on the engine's.")
            index.access.invalidate()
            return LibraryProbe.gather(batch, basis: basis, looking: index.access)
        }
        let looker = setting.libraryLooker
        return await BlockingWork.run(name: "probe") { LibraryProbe.gather(batch, basis: basis, looking: looker(root)) }
    }
}

extension Engine {
    /// The walk of a full scan (`LibraryIndex.walk`), on a thread of its own.
    func walkLibrary() async throws -> LibraryProbe {
        let (basis, daemonUID, store, looker) = (index.probeBasis, ownerUID, store, setting.libraryLooker)
        let root = try Directory.duplicate(index.access.root)
        let started = ContinuousClock.now
        let walked = await BlockingWork.run(name: "walk") {
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
