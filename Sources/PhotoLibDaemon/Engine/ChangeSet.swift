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
    /// What the change's plan decided the settle does besides events and answers (`SettleActs`).
    var acts: SettleActs
    /// View changes to apply entry by entry, judged against `contexts`; apps where that fails are reconciled whole.
    var incremental: (changes: [ViewChange], contexts: [AppViewContext])?
    /// Links made on other threads while the engine went on (`Engine+Pipeline`); they land first.
    var flight: LinkFlight?
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
    /// Requests the person is told of (a desktop notification), once the events are published.
    var announced: [(request: AccessRequest, purpose: String)] = []
    /// A start's scan only: the directories of each app's view that may be taken as right by the
    /// stamps the last clean stop left (`ViewTrust`).
    var viewTrust: [AppID: ViewTrust] = [:]

    init(reconcile: SettleActs.Reconcile = .apps([]), derivatives: SettleActs.Derivatives = .untouched, events: [PublishedEvent] = []) {
        acts = SettleActs(reconcile: reconcile, derivatives: derivatives)
        self.events = events
    }

    init(acts: SettleActs, events: [PublishedEvent] = []) {
        self.acts = acts
        self.events = events
    }

    /// Whether the change may have indexed new or edited files (a scan, or library changes with an asset
    /// after them): the place finder is woken for them.
    var mayBringFiles: Bool {
        if case .every = acts.reconcile { return true }
        if case .library(let changes) = acts.derivatives { return changes.contains { $0.newAsset != nil } }
        return false
    }

    /// Requests decided by the change, answered once its views are settled.
    mutating func answer(_ settled: [RequestSettlement], purpose: String, reason: CancelReason? = nil) {
        answers += settled.map { Answer(settlement: $0, purpose: purpose, reason: reason) }
    }
}
