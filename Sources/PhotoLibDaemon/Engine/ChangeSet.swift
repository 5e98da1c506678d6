import PhotoLibCore

/// What one committed change leaves to do: the views to bring up to date, the
/// derivatives no view may need any more, the events to publish and the
/// answers to hand over.
///
/// Every change (a watch batch, an edit, a grant's end, an import, a pick, a
/// rescan) builds one and hands it to `Engine.settle`, the one place that acts
/// on it: so no change reconciles, learns refusals or publishes by itself, and
/// each does all three in the same order.
struct ChangeSet {
    /// Which views need a full reconcile.
    enum Reconcile {
        /// Only those named in `apps` (none when it is empty).
        case apps(Set<AppID>)
        /// Every app's, with the passages above them and the views of apps that are gone.
        case every
    }

    /// Which derivatives without location may have lost their last view entry.
    enum Derivatives {
        case untouched
        /// Any of them (after a change that may have unlinked many).
        case all
        /// Those of these member rows.
        case members([Int64])
        /// Those of the members a batch of library changes touched; those of files that are gone are forgotten.
        case library([ViewChange])
    }

    var reconcile: Reconcile = .apps([])
    /// View changes to apply entry by entry, judged against `contexts`; apps where that fails are reconciled whole.
    var incremental: (changes: [ViewChange], contexts: [AppViewContext])?
    /// Links made on other threads while the engine went on (`Engine+Pipeline`); they land first.
    var flight: LinkFlight?
    var derivatives: Derivatives = .untouched
    /// Events already in the journal, published in this order.
    var events: [PublishedEvent] = []
    /// Requests the change decided: their events follow `events`, then each waiting connection gets its answer.
    var settled: [RequestSettlement] = []
    /// The purpose of the app `settled` belongs to, for the request events.
    var purpose = ""
    /// Why `settled` requests were cancelled, when they were.
    var cancelReason: CancelReason?

    init(reconcile: Reconcile = .apps([]), derivatives: Derivatives = .untouched, events: [PublishedEvent] = []) {
        self.reconcile = reconcile
        self.derivatives = derivatives
        self.events = events
    }

    /// Whether the change may have indexed new or edited files (a scan, or library changes with an asset
    /// after them): the place finder is woken for them.
    var mayBringFiles: Bool {
        if case .every = reconcile { return true }
        if case .library(let changes) = derivatives { return changes.contains { $0.newAsset != nil } }
        return false
    }

    /// Requests decided by the change, answered once its views are settled.
    mutating func answer(_ settled: [RequestSettlement], purpose: String, reason: CancelReason? = nil) {
        self.settled += settled
        self.purpose = purpose
        cancelReason = reason
    }
}
