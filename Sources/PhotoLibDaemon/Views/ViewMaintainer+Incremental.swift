import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// The incremental step: one batch of `ViewChange`s, a few links per changed asset,
/// ending where the whole-view reconcile would.
///
/// An app's links are gathered across the batch and made together, a
/// directory's at a time and on every core past `parallelLinkThreshold` (a
/// burst of 10,000 files into one album is 10,000 links into one directory).
/// Order still holds: before anything else touches an entry waiting to be
/// linked, or an album changes, what waits is linked first (`PendingLinks`).
extension ViewMaintainer {
    /// Applies a batch of changes to every app's view. Returns the apps whose
    /// view needs a full reconcile (an album moved under a live album grant,
    /// or an incremental step could not be done).
    func apply(_ changes: [ViewChange], to apps: [AppViewContext]) -> Set<AppID> {
        let (reconcile, gathered) = gather(changes, to: apps)
        var needsReconcile = reconcile
        for (app, view, var pending) in gathered where !link(&pending, in: view, app: app) { needsReconcile.insert(app) }
        return needsReconcile
    }

    /// The same, but the last links of each view are left to a flight the caller
    /// launches, and lands (`land`) before anything else touches the views.
    func applyLeavingLinks(_ changes: [ViewChange], to apps: [AppViewContext]) -> (needsReconcile: Set<AppID>, flight: LinkFlight) {
        let (needsReconcile, gathered) = gather(changes, to: apps)
        return (needsReconcile, prepareFlight(gathered))
    }

    /// Applies the changes to each view but the links still waiting at the end, which it returns.
    private func gather(_ changes: [ViewChange], to apps: [AppViewContext])
        -> (needsReconcile: Set<AppID>, pending: [(app: AppID, view: ViewDirectories, links: PendingLinks)]) {
        var needsReconcile: Set<AppID> = []
        var gathered: [(app: AppID, view: ViewDirectories, links: PendingLinks)] = []
        for context in apps where context.app.heldLayout != .empty {
            let view: ViewDirectories
            do {
                view = try openView(context.app)
            } catch {
                // Not a decision about the view's content: the full reconcile it gets will say what is wrong.
                logger.warning("Cannot open the view of \(context.app.id) to update it: \(error); reconciling it.")
                needsReconcile.insert(context.app.id)
                continue
            }
            var pending = PendingLinks()
            for change in changes {
                if !apply(change, to: view, context: context, pending: &pending) {
                    needsReconcile.insert(context.app.id)
                }
            }
            // Its directories are looked up again when its links are made: no view holds
            // a cache of descriptors while the next app's changes are applied.
            view.invalidate()
            gathered.append((context.app.id, view, pending))
        }
        return (needsReconcile, gathered)
    }

    /// Makes the links waiting for one view, each directory's together; an entry that
    /// cannot be linked now is removed unless it is already the right file. Returns
    /// false when the view needs a full reconcile.
    private func link(_ pending: inout PendingLinks, in view: ViewDirectories, app: AppID) -> Bool {
        guard !pending.isEmpty else { return true }
        let byDirectory = pending.byDirectory
        let count = pending.take().count
        do {
            // Directories are looked up again here, one at a time: the view's cache may have closed one meanwhile.
            for (directoryPath, waiting) in byDirectory {
                guard let directory = try view.directory(directoryPath, create: true) else { continue }
                let links = waiting.map { (source: $0.source, entry: $0.entry) }
                let outcomes = try link(links, in: directory, app: app)
                for (link, outcome) in zip(links, outcomes) where outcome != .linked {
                    // What cannot be linked now must not stay as it was.
                    try removeUnless(link.entry, in: directory, holding: link.source.wanted(making(for: app).form), after: outcome)
                }
            }
            return true
        } catch {
            logger.warning("Could not link \(count) entries into the view of \(app): \(error); reconciling it.")
            return false
        }
    }

    /// Returns false when the view needs a full reconcile.
    private func apply(_ change: ViewChange, to view: ViewDirectories, context: AppViewContext, pending: inout PendingLinks) -> Bool {
        let layout = context.app.layout
        if case .asset = change {} else if !link(&pending, in: view, app: context.app.id) {
            // An album changes below: what waits is linked first, as it was asked first.
            return false
        }
        switch change {
        case .albumCreated(let path):
            guard layout == .full else { return true }
            return (try? view.directory(path, create: true)) != nil  // a failure is no directory: reconciled whole
        case .albumMoved(let from, let to):
            // References name their photos' paths: every one below the album is made again.
            if making(for: context.app.id).references { return false }
            switch AlbumMoveEffect.of(layout: layout, hasAlbumGrants: !context.selectedAlbums.isEmpty) {
            case .nothing: return true
            case .reconcile: return false
            case .moveDirectory: break
            }
            view.invalidate()
            do {
                guard let fromName = from.lastComponent, let toName = to.lastComponent,
                      let fromParent = try view.directory(from.parent ?? .root, create: false),
                      let toParent = try view.directory(to.parent ?? .root, create: true) else { return false }
                if let existing = try Directory.status(of: toName, in: toParent), existing.kind == .directory {
                    try Directory.removeTree(toName, in: toParent)
                }
                try Directory.rename(fromName, in: fromParent, to: toName, in: toParent)
                view.invalidate()
                return true
            } catch {
                return false
            }
        case .albumRemoved(let path):
            guard layout == .full, let name = path.lastComponent else { return true }
            view.invalidate()
            do {
                // Not there: nothing to remove. Not openable: thrown, and the view is reconciled whole.
                guard let parent = try view.directory(path.parent ?? .root, create: false) else { return true }
                try Directory.removeTree(name, in: parent)
                view.invalidate()
                return true
            } catch {
                return false
            }
        case .asset(let old, let new):
            let policy = context.policy
            // Each wanted entry with the file it links (a derivative, for an
            // app without location); a withheld member has no entry.
            let wanted: [(ViewPolicy.Entry, LinkSource)] = (new.map { policy.entries($0) } ?? []).compactMap { entry in
                guard let original = LinkSource(entry.member),
                      let source = resolve(original, file: entry.member.file, for: context.app) else { return nil }
                return (entry, source)
            }
            let wantedInodes = Dictionary(wanted.map { ($0.0.path, $0.1.inode) }, uniquingKeysWith: { first, _ in first })
            do {
                // An entry waiting to be linked is linked before it is touched again, as it was asked first.
                let touched = (old.map(policy.placements) ?? []).map(\.path) + wanted.map(\.0.path)
                if pending.mustLinkFirst(touching: touched), !link(&pending, in: view, app: context.app.id) { return false }
                // Entries of the old form that the new one lacks, or holds for another inode.
                for placement in old.map(policy.placements) ?? [] where wantedInodes[placement.path] == nil {
                    if let name = placement.path.lastComponent,
                       let parent = try view.directory(placement.path.parent ?? .root, create: false) {
                        try Directory.unlink(name, in: parent)
                    }
                }
                for (entry, source) in wanted where entry.path.lastComponent != nil {
                    // Its directory is made now, so an album's entries are never linked into a directory that is not there.
                    guard try view.directory(entry.path.parent ?? .root, create: true) != nil else { continue }
                    // No look first: a new entry's name is nearly always free, and `link` finds
                    // an entry already right, or replaces a wrong one in place.
                    pending.add(entry.path, source)
                }
                return true
            } catch {
                let path = new?.primary?.path ?? old?.primary?.path ?? .root
                logger.warning("Could not update the view of \(context.app.id) for \(path): \(error); reconciling it.")
                return false
            }
        }
    }
}
