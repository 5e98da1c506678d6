import Dispatch
import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Linking (or cloning) entries, one or many at once, and removing one that is no longer wanted.
extension ViewMaintainer {
    /// One entry to link: what to link, from which open directory, as what, where, and whether
    /// as a hard link or a clone. Touches nothing of the maintainer's state, so many run at once.
    struct LinkJob: Sendable {
        let source: LinkSource
        let sourceDirectory: FileDescriptor
        let entry: FileName
        let directory: FileDescriptor
        /// With clones, where each is made before it is renamed into the view.
        let staging: CloneStaging?
        /// Copies where the filesystem cannot clone (a Flatpak Pictures folder: never a link).
        var orCopy = false
        /// A reference (a symbolic link naming the original in the library), not a link or a clone.
        var references = false
        /// The entry is known not to hold its source now (a full reconcile's diff just said
        /// so): a clone need not look at it first.
        var knownStale = false
        var form: ViewEntryForm { references ? .references : staging == nil ? .links : .clones }
    }

    /// What one job came to: its outcome, a refusal to learn for the original, or an error to throw.
    struct LinkAttempt: Sendable {
        var outcome: LinkOutcome = .skipped
        var learned: LinkRefusal?
        var error: (any Error)?
    }

    /// From this many links on, one directory's links are shared among the cores: a typical
    /// album (100 photos) is past it; a handful of links is not worth a second thread.
    static let parallelLinkThreshold = 64

    /// The most threads one directory's links are shared among.
    static let maximumWorkers = 8

    /// Hardlinks an asset into a view directory so that a wrong entry is never visible.
    func link(_ asset: LinkSource, as entry: FileName, in directory: FileDescriptor, app: AppID) throws -> LinkOutcome {
        let making = making(for: app)
        if defersReferences(making, asset) { return .skipped }
        guard let sourceDirectory = sourceDirectory(of: asset) else { return .skipped }
        return try record(Self.perform(worker: 0, LinkJob(source: asset, sourceDirectory: sourceDirectory, entry: entry, directory: directory,
                                                          staging: making.staging, orCopy: making.orCopy, references: making.references),
                                       paths: paths, ownerUID: ownerUID, logger: logger), for: asset)
    }

    /// Links many entries, on every core when there are enough of them: linking is
    /// system calls on separate names, and one thread leaves the other core idle.
    /// Outcomes come back in the order of `links`.
    func link(_ links: [(source: LinkSource, entry: FileName)], in directory: FileDescriptor, app: AppID, knownStale: Bool = false) throws -> [LinkOutcome] {
        let making = making(for: app)
        var outcomes = Array(repeating: LinkOutcome.skipped, count: links.count)
        // By source directory, each opened just before its links run: the library's descriptor
        // cache may close one it evicts, so none is held across another's lookup.
        let groups = Dictionary(grouping: links.indices) { links[$0].source.isDerivative ? nil : links[$0].source.album }
        for (album, indices) in groups {
            // Left as skipped: what the library's server would be asked while it does not answer.
            if album != nil, making.references, libraryUnreachable { continue }
            guard let sourceDirectory = album.map(access.directory) ?? derivatives.directory else { continue }
            // In batches, so a stop (SIGTERM) is heard between them and the request's progress moves:
            // a view of a whole library may be a million links or clones.
            for start in stride(from: 0, to: indices.count, by: Self.linkBatch) {
                try StopRequest.checkpoint()
                let batch = indices[start..<min(start + Self.linkBatch, indices.count)]
                let jobs = batch.map {
                    LinkJob(source: links[$0].source, sourceDirectory: sourceDirectory, entry: links[$0].entry, directory: directory,
                            staging: making.staging, orCopy: making.orCopy, references: making.references, knownStale: knownStale)
                }
                let attempts = perform(jobs)
                for (job, index) in batch.enumerated() { outcomes[index] = try record(attempts[job], for: links[index].source) }
                WorkProgress.current?.advance(by: batch.count)
            }
        }
        return outcomes
    }

    /// Whether placing this reference waits for the library's server to answer again: while it is
    /// unavailable (`LibraryReach`), judging the original would be a call into a mount that may hold
    /// the engine. The entry is skipped (an entry already naming it stays, a wrong one goes, both
    /// local); the return reconciles every view whole.
    private func defersReferences(_ making: EntryMaking, _ asset: LinkSource) -> Bool {
        making.references && libraryUnreachable && !asset.isDerivative
    }

    /// How many links are made between two looks at whether the daemon is stopping: a few
    /// hundred milliseconds of clones on a slow disk, a blink of hard links.
    static let linkBatch = 1_024

    /// Runs the jobs, shared among the cores past `parallelLinkThreshold`.
    private func perform(_ jobs: [LinkJob]) -> [LinkAttempt] {
        Self.perform(jobs, paths: paths, ownerUID: ownerUID, logger: logger)
    }

    /// The same, for any thread: it touches nothing of the maintainer's state.
    static func perform(_ jobs: [LinkJob], paths: (library: String, views: String), ownerUID: UInt32, logger: Logger) -> [LinkAttempt] {
        SharedAmongCores.map(count: jobs.count, threshold: parallelLinkThreshold, maximumWorkers: maximumWorkers, initial: LinkAttempt()) {
            worker, index in Self.perform(worker: worker, jobs[index], paths: paths, ownerUID: ownerUID, logger: logger)
        }
    }

    private func sourceDirectory(of asset: LinkSource) -> FileDescriptor? {
        asset.isDerivative ? derivatives.directory : access.directory(asset.album)
    }

    /// Learns a refusal and throws an error, on the maintainer's own thread.
    private func record(_ attempt: LinkAttempt, for asset: LinkSource) throws -> LinkOutcome {
        if let refusal = attempt.learned { learnedRefusals[asset.rowID] = refusal }
        if let error = attempt.error { throw error }
        return attempt.outcome
    }

    /// Links one entry.
    ///
    /// The source is opened `O_PATH|O_NOFOLLOW` and judged by `LinkVerdict`
    /// (regular file, the indexed inode, the owner's, writable by no one else,
    /// no set-ID bit); that very descriptor is linked (`AT_EMPTY_PATH`, or
    /// through `/proc/self/fd` where the kernel wants a capability for that),
    /// straight to its name, or under a hidden temporary name renamed over an
    /// entry already there. So what was checked is what is linked, whatever
    /// happens to the name meanwhile, and an app never sees a wrong entry.
    ///
    /// In `clones` mode the descriptor judged is opened again for reading, through
    /// `/proc/self/fd` (that very inode, whatever its name is now), and cloned
    /// (`placeClone`): nothing but a regular file that passed is ever opened.
    static func perform(worker: Int, _ job: LinkJob, paths: (library: String, views: String), ownerUID: UInt32, logger: Logger) -> LinkAttempt {
        let asset = job.source
        let source: FileDescriptor
        let opened: FileStatus
        do {
            source = try Directory.openPath(asset.name, in: job.sourceDirectory)
        } catch {
            return LinkAttempt()  // gone or unreadable since it was indexed: its event or the next scan decides
        }
        defer { source.close() }
        do {
            opened = try Directory.status(of: source)
        } catch {
            return LinkAttempt()
        }
        switch LinkVerdict.judge(opened.observation, expectedInode: asset.inode, daemonUID: ownerUID) {
        case .notTheIndexedFile:
            return LinkAttempt()
        case .refuse(let refusal):
            // A derivative is the daemon's own, made to pass; the original's refusal is for the original.
            return LinkAttempt(outcome: .refused(refusal), learned: asset.isDerivative ? nil : refusal)
        case .link:
            break
        }
        // Judged as a link would be: only what may be shared is ever named, and the server checks nothing.
        if job.references && !asset.isDerivative { return placeReference(job, logger: logger) }
        if let staging = job.staging {
            let readable: FileDescriptor
            do {
                readable = try FileClone.openForReading(source)
            } catch where error.errno == EACCES && !asset.isDerivative {
                // The owner's own file, which the owner may not read: refused until it changes (a chmod).
                return LinkAttempt(outcome: .refused(.unreadableByOwner), learned: .unreadableByOwner)
            } catch {
                return LinkAttempt()  // gone since it was judged: its event or the next scan decides
            }
            defer { readable.close() }
            return placeClone(job, from: readable, opened: opened, staging: staging.directory(for: worker), paths: paths, logger: logger)
        }
        let wanted = asset.wanted(.links)
        // Linked by the very descriptor that was judged, so the entry is right
        // from the instant it exists. Straight to its name when that is free;
        // an entry already there (an original replaced by an atomic save, a
        // tampered view) is replaced by a rename, so it is never missing or wrong.
        do {
            try Directory.link(open: source, as: job.entry, in: job.directory)
            return LinkAttempt(outcome: .linked)
        } catch where error.errno == EEXIST {
            // The very file already there: nothing to do. Anything else is replaced below.
            do {
                if let existing = try Directory.status(of: job.entry, in: job.directory), existing.kind == .regular,
                   wanted.isHeld(by: existing.presentFile) {
                    return LinkAttempt(outcome: .linked)
                }
            } catch {
                return LinkAttempt(error: error)
            }
        } catch {
            return linkFailed(error, asset, paths: paths, logger: logger)
        }
        var generator = SystemRandomNumberGenerator()
        let temporary = FileName(".photolibd-link-\(String(generator.next(), radix: 16))")!
        do {
            try Directory.link(open: source, as: temporary, in: job.directory)
        } catch {
            return linkFailed(error, asset, paths: paths, logger: logger)
        }
        do {
            try Directory.rename(temporary, in: job.directory, to: job.entry, in: job.directory)
        } catch {
            do {
                try Directory.unlink(temporary, in: job.directory)
            } catch let cleanup {
                logger.warning("Cannot remove the temporary link \(temporary) from a view: \(cleanup); the next reconcile removes it.")
            }
            return LinkAttempt(error: error)
        }
        return LinkAttempt(outcome: .linked)
    }

    /// What a failed `linkat` of a judged original means: another mount is a
    /// configuration error; gone since it was opened is for its event to
    /// decide; a refusal by the kernel is learned for that file alone.
    private static func linkFailed(_ error: SystemCallError, _ asset: LinkSource, paths: (library: String, views: String), logger: Logger) -> LinkAttempt {
        if error.errno == EXDEV { return LinkAttempt(error: PhotoLibError.viewsOnOtherMount(library: paths.library, views: paths.views)) }
        if error.isNotFound || asset.isDerivative { return LinkAttempt() }
        guard let refusal = LinkRefusal(linkFailure: error.errno) else { return LinkAttempt(error: error) }
        logger.warning("Cannot link \(asset.album.appending(asset.name)) into a view: \(error). It is left out of every view: \(refusal.explanation).")
        return LinkAttempt(outcome: .refused(refusal), learned: refusal)
    }

    /// Clones a judged source into `staging`, then renames the clone over the entry.
    ///
    /// The clone is given the source's modification time, and the source must be the
    /// version the index knows before and after the clone (an edit meanwhile is its
    /// event's to decide). A rename puts it in place whole, in one step, over an older
    /// clone if there is one: an entry is the old clone or the new one, never missing
    /// or partial, and a crash leaves a clone half made only in `staging`, outside every view.
    private static func placeClone(_ job: LinkJob, from source: FileDescriptor, opened: FileStatus, staging: FileDescriptor,
                                   paths: (library: String, views: String), logger: Logger) -> LinkAttempt {
        let asset = job.source
        let wanted = asset.wanted(.clones)
        do {
            // An entry already holding this version stays: no clone is made for nothing.
            if !job.knownStale, let existing = try Directory.status(of: job.entry, in: job.directory), existing.kind == .regular,
               wanted.isHeld(by: existing.presentFile) {
                return LinkAttempt(outcome: .linked)
            }
        } catch {
            return LinkAttempt(error: error)
        }
        guard isVersion(opened, of: asset) else { return LinkAttempt() }  // edited since indexed: its event decides
        var generator = SystemRandomNumberGenerator()
        let made = FileName("clone-\(String(generator.next(), radix: 16))")!
        do {
            try FileClone.clone(source, as: made, in: staging, permissions: opened.permissions & 0o444,
                                modificationTime: asset.stamp.modificationTime, orCopy: job.orCopy)
        } catch {
            return linkFailed(error, asset, paths: paths, logger: logger)
        }
        do {
            // Written to while it was cloned: not the version the app is told of.
            guard isVersion(try Directory.status(of: source), of: asset) else {
                try Directory.unlink(made, in: staging)
                return LinkAttempt()
            }
            try Directory.rename(made, in: staging, to: job.entry, in: job.directory)
            return LinkAttempt(outcome: .linked)
        } catch {
            do {
                try Directory.unlink(made, in: staging)
            } catch let cleanup {
                logger.warning("Cannot remove a clone left in the staging directory: \(cleanup); the next start removes it.")
            }
            return LinkAttempt(error: error)
        }
    }

    /// Makes the entry a reference to the judged original: a symbolic link holding its path in the
    /// library, straight to its name when that is free, else under a hidden name renamed over the
    /// entry there, so an app never finds it missing. One already naming it stays.
    private static func placeReference(_ job: LinkJob, logger: Logger) -> LinkAttempt {
        let target = job.source.referenceTarget
        do {
            try Directory.symlink(target: target, as: job.entry, in: job.directory)
            return LinkAttempt(outcome: .linked)
        } catch where error.errno == EEXIST {
            do {
                if let existing = try Directory.status(of: job.entry, in: job.directory), existing.kind == .symlink,
                   try Directory.readLink(job.entry, in: job.directory) == target {
                    return LinkAttempt(outcome: .linked)
                }
            } catch {
                return LinkAttempt(error: error)
            }
        } catch {
            return LinkAttempt(error: error)
        }
        var generator = SystemRandomNumberGenerator()
        let temporary = FileName(".photolibd-link-\(String(generator.next(), radix: 16))")!
        do {
            try Directory.symlink(target: target, as: temporary, in: job.directory)
            try Directory.rename(temporary, in: job.directory, to: job.entry, in: job.directory)
            return LinkAttempt(outcome: .linked)
        } catch {
            do {
                try Directory.unlink(temporary, in: job.directory)
            } catch let cleanup where !cleanup.isNotFound {
                logger.warning("Cannot remove the temporary reference \(temporary) from a view: \(cleanup); the next reconcile removes it.")
            } catch {}
            return LinkAttempt(error: error)
        }
    }

    /// Whether an opened source is the version a clone must hold: for an original, the
    /// size and modification time the index knows; for a derivative (never edited, made
    /// anew), its size.
    private static func isVersion(_ opened: FileStatus, of asset: LinkSource) -> Bool {
        opened.size == asset.stamp.size && (asset.isDerivative || opened.modificationTime == asset.stamp.modificationTime)
    }

    /// Unlinks an entry that could not be placed now, unless it may stay (`WantedEntry.keeps`).
    func removeUnless(_ name: FileName, in directory: FileDescriptor, holding wanted: WantedEntry, after outcome: LinkOutcome) throws {
        if let present = try Directory.status(of: name, in: directory) {
            switch present.kind {
            case .regular where wanted.keeps(present.presentFile, after: outcome): return
            case .symlink where wanted.keeps(PresentFile(inode: present.inode, target: try Directory.readLink(name, in: directory)), after: outcome):
                return
            default: break
            }
        }
        try Directory.unlink(name, in: directory)
    }
}
