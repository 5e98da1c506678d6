import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// The incremental step: one batch of `ViewChange`s, a few links per changed asset,
/// ending where the whole-view reconcile would.
extension ViewMaintainer {
    /// Applies a batch of changes to every app's view. Returns the apps whose
    /// view needs a full reconcile (an album moved under a live album grant,
    /// or an incremental step could not be done).
    func apply(_ changes: [ViewChange], to apps: [AppViewContext]) -> Set<AppID> {
        var needsReconcile: Set<AppID> = []
        for context in apps where context.app.layout != .empty {
            let view: ViewDirectories
            do {
                view = try openView(context.app)
            } catch {
                // Not a decision about the view's content: the full reconcile it gets will say what is wrong.
                logger.warning("Cannot open the view of \(context.app.id) to update it: \(error); reconciling it.")
                needsReconcile.insert(context.app.id)
                continue
            }
            for change in changes {
                if !apply(change, to: view, context: context) {
                    needsReconcile.insert(context.app.id)
                }
            }
        }
        return needsReconcile
    }

    /// Returns false when the view needs a full reconcile.
    private func apply(_ change: ViewChange, to view: ViewDirectories, context: AppViewContext) -> Bool {
        let layout = context.app.layout
        switch change {
        case .albumCreated(let path):
            guard layout == .full else { return true }
            return (try? view.directory(path, create: true)) != nil  // a failure is no directory: reconciled whole
        case .albumMoved(let from, let to):
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
                // Entries of the old form that the new one lacks, or holds for another inode.
                for placement in old.map(policy.placements) ?? [] where wantedInodes[placement.path] == nil {
                    if let name = placement.path.lastComponent,
                       let parent = try view.directory(placement.path.parent ?? .root, create: false) {
                        try Directory.unlink(name, in: parent)
                    }
                }
                for (entry, source) in wanted {
                    guard let name = entry.path.lastComponent,
                          let parent = try view.directory(entry.path.parent ?? .root, create: true) else { continue }
                    // No look first: a new entry's name is nearly always free, and
                    // `link` finds an entry already right, or replaces a wrong one
                    // in place. What cannot be linked now must not stay as it was.
                    if try link(source, as: name, in: parent) != .linked {
                        try removeUnless(name, in: parent, inode: source.inode)
                    }
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
