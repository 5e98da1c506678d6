/// What the library's changes leave to the settle, once the index has committed them: a watch
/// batch, a full scan, the library gone. The index's edits themselves are decided event by event by
/// the core's rules (`IndexStep`, `RenameOutcome`, `DirectoryPlan`, `FileRefresh`, `LivePairing`).
public enum LibraryPlan {
    /// How a committed watch batch is settled.
    public enum BatchSettlement: Sendable, Equatable {
        /// The library's root went: every app is told to reload and every view emptied (`gone`).
        case libraryGone
        /// Only a full scan tells what happened (the watches were made anew, or events were lost:
        /// then every app is told to reload, whatever the scan finds).
        case fullScan(reloadEveryApp: Bool)
        /// Too many changes to carry one by one: these apps' views are reconciled whole.
        case reconcile(Set<AppID>)
        /// Linked here, entry by entry, without a hop between threads (a lone change, a burst's end).
        case linkHere
        /// Linked on other threads while the next batch is indexed, settled once they land.
        case linkAlongside
    }

    /// - Parameters:
    ///   - rootGone, needsFullScan, eventsLost: what the batch's events said (`LibraryIndex.Outcome`).
    ///   - tooMany: the change recorder overflowed (more changes than are told one by one).
    ///   - changes: how many changes it recorded.
    ///   - moreQueued: more events wait to be indexed.
    ///   - apps: the apps whose views the batch could touch.
    public static func settle(rootGone: Bool, needsFullScan: Bool, eventsLost: Bool, tooMany: Bool, changes: Int, moreQueued: Bool,
                              apps: Set<AppID>) -> BatchSettlement {
        if rootGone { return .libraryGone }
        if needsFullScan { return .fullScan(reloadEveryApp: eventsLost) }
        if tooMany { return .reconcile(apps) }
        return changes > 0 && moreQueued ? .linkAlongside : .linkHere
    }

    /// The acts of a settled batch: copies without location of the members it touched may have lost
    /// their last entry (none is looked at when every view is reconciled whole).
    public static func batchActs(_ settlement: BatchSettlement, changes: [ViewChange]) -> SettleActs {
        switch settlement {
        case .reconcile(let apps): SettleActs(reconcile: .apps(apps))
        case .linkHere, .linkAlongside: SettleActs(derivatives: .library(changes))
        case .libraryGone, .fullScan: .none  // their own settle follows
        }
    }

    /// A full scan: every view reconciled (and the views of apps that are gone removed), every
    /// copy without location no view links collected, every inbox made and watched.
    public static let scanned = SettleActs(reconcile: .every, kinds: .inboxes)

    /// The library is gone: every app whose view held something is told to reload, every view
    /// reconciled (to nothing while it is away).
    public static func gone(apps: [AppRecord]) -> (reloads: [AppID], acts: SettleActs) {
        (apps.filter { $0.layout != .empty }.map(\.id), SettleActs(reconcile: .every))
    }
}
