import Dispatch
import Logging
import PhotoLibCore
import PhotoLibSystem

/// The links of a batch's incremental step, made on other threads while the
/// engine indexes the next batch (the pipeline of `Engine.process`).
///
/// Everything a link needs is in its job, with descriptors of its own
/// (duplicates: the library's and the view's caches may close theirs
/// meanwhile), so the flight touches nothing of the maintainer's state while it
/// runs. What the attempts came to is learned on the engine's thread when the
/// flight lands (`ViewMaintainer.land`), before anything else touches the views.
final class LinkFlight: @unchecked Sendable {
    // @unchecked: `attempts` is written by `run` on one thread and read by `land` only after `done` is waited for.
    struct Group {
        let app: AppID
        /// The view directory the links go into (owned by the flight).
        let directory: FileDescriptor
        let jobs: [ViewMaintainer.LinkJob]
    }

    let groups: [Group]
    /// Apps whose links could not be prepared: their views are reconciled whole.
    let unprepared: Set<AppID>
    private let owned: [FileDescriptor]
    private let paths: (library: String, views: String)
    private let ownerUID: UInt32
    private let logger: Logger
    private let before: (@Sendable () -> Void)?
    fileprivate var attempts: [[ViewMaintainer.LinkAttempt]] = []
    private let done = DispatchGroup()

    fileprivate init(groups: [Group], unprepared: Set<AppID>, owned: [FileDescriptor], paths: (library: String, views: String),
                     ownerUID: UInt32, logger: Logger, before: (@Sendable () -> Void)?) {
        self.before = before
        self.groups = groups
        self.unprepared = unprepared
        self.owned = owned
        self.paths = paths
        self.ownerUID = ownerUID
        self.logger = logger
    }

    var isEmpty: Bool { groups.isEmpty && unprepared.isEmpty }

    /// Starts the links on another thread (each group on every core past the threshold).
    func launch() {
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [self] in
            before?()
            attempts = groups.map { ViewMaintainer.perform($0.jobs, paths: paths, ownerUID: ownerUID, logger: logger) }
        }
    }

    /// Whether every link is made.
    var isDone: Bool { done.wait(timeout: .now()) == .success }

    /// Waits, holding no thread, until every link is made.
    func finished() async {
        await withCheckedContinuation { continuation in
            done.notify(queue: .global(qos: .userInitiated)) { continuation.resume() }
        }
    }

    /// Waits for the links to be made. The engine awaits `finished` before it lands a flight
    /// (`Engine.readyForChange`), so this returns at once there; it blocks only where a change
    /// came in some other way, which is still correct, only slower.
    fileprivate func wait() {
        done.wait()
    }

    fileprivate func closeAll() {
        for fd in owned { fd.close() }
    }
}

extension ViewMaintainer {
    /// Prepares the links an app's incremental step gathered, for a flight: each
    /// directory looked up and each source directory opened now, on this thread.
    func prepareFlight(_ pending: [(app: AppID, view: ViewDirectories, links: PendingLinks)]) -> LinkFlight {
        var groups: [LinkFlight.Group] = []
        var unprepared: Set<AppID> = []
        var owned: [FileDescriptor] = []
        for (app, view, links) in pending {
            do {
                for (directoryPath, waiting) in links.byDirectory {
                    guard let cached = try view.directory(directoryPath, create: true) else { continue }
                    let directory = try Directory.duplicate(cached)
                    owned.append(directory)
                    var jobs: [LinkJob] = []
                    for (album, sources) in Dictionary(grouping: waiting, by: { $0.source.isDerivative ? nil : $0.source.album }) {
                        guard let cachedSource = album.map(access.directory) ?? derivatives.directory else { continue }
                        let sourceDirectory = try Directory.duplicate(cachedSource)
                        owned.append(sourceDirectory)
                        let making = making(for: app)
                        jobs += sources.map {
                            LinkJob(source: $0.source, sourceDirectory: sourceDirectory, entry: $0.entry, directory: directory,
                                    staging: making.staging, orCopy: making.orCopy, references: making.references)
                        }
                    }
                    groups.append(LinkFlight.Group(app: app, directory: directory, jobs: jobs))
                }
            } catch {
                logger.warning("Could not prepare \(links.links.count) links into the view of \(app): \(error); reconciling it.")
                unprepared.insert(app)
            }
        }
        return LinkFlight(groups: groups, unprepared: unprepared, owned: owned, paths: paths, ownerUID: ownerUID, logger: logger,
                          before: beforeFlight)
    }

    /// Waits for a flight, learns what its links came to, and removes an entry that
    /// could not be linked unless it is already the right file. Returns the apps
    /// whose views need a full reconcile.
    func land(_ flight: LinkFlight) -> Set<AppID> {
        if !flight.isDone { landingsThatWaited += 1 }
        flight.wait()
        defer { flight.closeAll() }
        var needsReconcile = flight.unprepared
        for (group, attempts) in zip(flight.groups, flight.attempts) where !needsReconcile.contains(group.app) {
            do {
                for (job, attempt) in zip(group.jobs, attempts) {
                    if let refusal = attempt.learned { learnedRefusals[job.source.rowID] = refusal }
                    if let error = attempt.error { throw error }
                    if attempt.outcome != .linked {
                        try removeUnless(job.entry, in: group.directory, holding: job.source.wanted(job.form), after: attempt.outcome)
                    }
                }
            } catch {
                logger.warning("Could not link entries into the view of \(group.app): \(error); reconciling it.")
                needsReconcile.insert(group.app)
            }
        }
        return needsReconcile
    }
}
