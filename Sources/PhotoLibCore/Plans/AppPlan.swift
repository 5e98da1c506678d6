/// Changes to an app's registration and settings, decided on what the transaction read: what is
/// written, whether the app is told to read its view again, and what the settle does.
public enum AppPlan {
    /// What one of these changes decides.
    public struct Decided: Sendable, Equatable {
        /// The app after the change.
        public var after: AppRecord
        /// The app is told to read its view again (`reload`): what it sees may have changed under it.
        public var reloads: Bool
        public var acts: SettleActs
    }

    /// Registering `record`: refused when the ID is taken. A new app's view is made, its passage,
    /// inbox and the watch on its view's opens with it.
    public static func register(_ record: AppRecord, existing: AppRecord?) throws(PhotoLibError) -> Decided {
        if let existing { throw .appExists(record.id, uid: existing.uid) }
        return Decided(after: record, reloads: false, acts: SettleActs(reconcile: .apps([record.id]), kinds: .appsChanged))
    }

    /// What removing an app does: its pending requests are withdrawn (cancelled, deleted with it), and its view,
    /// passage and inbox go; any copy without location only it linked may go too.
    public struct Removal: Sendable, Equatable {
        public var withdrawn: [AccessRequest]
        public var acts: SettleActs
    }

    public static func remove(_ record: AppRecord, requests: [AccessRequest]) -> Removal {
        Removal(withdrawn: requests, acts: SettleActs(derivatives: .all, kinds: .appsChanged))
    }

    /// Whether the app sees where photos were taken: its view is linked again (originals, or copies
    /// without location), and it is told to reload when the setting changed (sizes and contents of its
    /// entries may have).
    public static func location(_ policy: LocationPolicy, of before: AppRecord) -> Decided {
        var after = before
        after.location = policy
        return Decided(after: after, reloads: before.location != policy, acts: SettleActs(reconcile: .apps([before.id]), derivatives: .all))
    }

    /// Whether captions and people's names leave with the app's picks: views are not changed (SPEC: picks only).
    public static func captions(_ shared: Bool, of before: AppRecord) -> Decided {
        var after = before
        after.captions = shared
        return Decided(after: after, reloads: false, acts: .none)
    }
}

/// Rule grants (every asset taken in a span) given or taken back, decided on the app's rules as they stand.
public enum RulePlan {
    /// A rule to give: the same span and type given again is the rule already there.
    public struct Addition: Sendable, Equatable {
        /// The rule already given with this span and type, if any: nothing is written.
        public var existing: CaptureRule?
        /// A limited app is told to read its view again: a new rule grants what it did not see.
        public var reloads: Bool
        public var acts: SettleActs
    }

    public static func add(from: Int64, to: Int64, mediaType: MediaType?, app: AppRecord, rules: [CaptureRule]) -> Addition {
        let existing = rules.first { $0.from == from && $0.to == to && $0.mediaType == mediaType }
        return Addition(existing: existing, reloads: existing == nil && app.layout == .limited,
                        acts: SettleActs(reconcile: .apps([app.id]), derivatives: .all))
    }

    /// Rules to take back: these (or every one of the app's when `ids` is nil).
    public struct Removal: Sendable, Equatable {
        /// The rules deleted: those of `ids` the app has.
        public var removed: [CaptureRule]
        public var reloads: Bool
        public var acts: SettleActs
    }

    public static func remove(ids: [Int64]?, app: AppRecord, rules: [CaptureRule]) -> Removal {
        let removed = rules.filter { ids?.contains($0.id) ?? true }
        return Removal(removed: removed, reloads: !removed.isEmpty && app.layout == .limited,
                       acts: SettleActs(reconcile: .apps([app.id]), derivatives: .all))
    }
}
