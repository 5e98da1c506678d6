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
    /// A request the change decided, with its app's purpose (for its event) and why it was cancelled, when it was.
    struct Answer {
        var settlement: RequestSettlement
        var purpose: String
        var reason: CancelReason?
    }
    /// Requests the change decided: their events follow `events`, then each waiting connection gets its answer.
    private(set) var answers: [Answer] = []

    /// What else a change leaves to do besides its views, each done by `settle` alone, in its place.
    struct Acts: OptionSet {
        let rawValue: Int
        /// The passage directories above the views follow the apps' uids (before any view is reconciled).
        static let passages = Acts(rawValue: 1 << 0)
        /// Every app's inbox made, fixed and watched, and every Flatpak Pictures folder watched; a gone app's removed.
        static let inboxes = Acts(rawValue: 1 << 1)
        /// The opens of every app's view watched for the access report.
        static let viewOpens = Acts(rawValue: 1 << 2)
        /// The alarm of timed grants woken: an end was set or moved.
        static let grantAlarm = Acts(rawValue: 1 << 3)
    }
    var acts: Acts = []
    /// Flatpak apps whose user override and Pictures watch follow their status now (`confirmed`: the
    /// person confirmed what limiting an app with a broad grant takes from it).
    var picturesFollow: [(app: AppRecord, confirmed: Bool)] = []
    /// Requests the person is told of (a desktop notification), once the events are published.
    var announced: [(request: AccessRequest, purpose: String)] = []

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
        answers += settled.map { Answer(settlement: $0, purpose: purpose, reason: reason) }
    }
}
