/// What a change leaves to do once it is committed, besides its events and answers: decided by the
/// change's plan, done by the engine's settle alone, in one order. A value, so a plan test can say
/// which acts a change decides, and a change composed of others does the acts of all of them once.
public struct SettleActs: Sendable, Equatable {
    /// Which views need a full reconcile.
    public enum Reconcile: Sendable, Equatable {
        /// Only those named (none when the set is empty).
        case apps(Set<AppID>)
        /// Every app's, with the passages above them and the views of apps that are gone.
        case every
    }

    /// Which copies without location may have lost their last view entry.
    public enum Derivatives: Sendable, Equatable {
        case untouched
        /// Any of them (after a change that may have unlinked many).
        case all
        /// Those of these member rows.
        case members([Int64])
        /// Those of the members a batch of library changes touched; those of files that are gone are forgotten.
        case library([ViewChange])
    }

    /// What else a change leaves to do besides its views.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The passage directories above the views follow the apps' uids (before any view is reconciled).
        public static let passages = Kinds(rawValue: 1 << 0)
        /// Every app's inbox made, fixed and watched, and every Flatpak Pictures folder watched; a gone app's removed.
        public static let inboxes = Kinds(rawValue: 1 << 1)
        /// The opens of every app's view watched for the access report.
        public static let viewOpens = Kinds(rawValue: 1 << 2)
        /// The alarm of timed grants woken: an end was set or moved.
        public static let grantAlarm = Kinds(rawValue: 1 << 3)
        /// What an app's arrival or departure asks: its passage, its inbox, the watch on its view's opens.
        public static let appsChanged: Kinds = [.passages, .inboxes, .viewOpens]
    }

    /// A Flatpak app whose user override and Pictures watch follow its status now (`confirmed`: the
    /// person confirmed what limiting an app with a broad grant takes from it).
    public struct PicturesFollow: Sendable, Equatable {
        public var app: AppRecord
        public var confirmed: Bool
        public init(app: AppRecord, confirmed: Bool) {
            self.app = app
            self.confirmed = confirmed
        }
    }

    public var reconcile: Reconcile
    public var derivatives: Derivatives
    public var kinds: Kinds
    public var picturesFollow: [PicturesFollow]

    public init(reconcile: Reconcile = .apps([]), derivatives: Derivatives = .untouched, kinds: Kinds = [],
                picturesFollow: [PicturesFollow] = []) {
        self.reconcile = reconcile
        self.derivatives = derivatives
        self.kinds = kinds
        self.picturesFollow = picturesFollow
    }

    /// Nothing to do.
    public static let none = SettleActs()

    /// An app's status changed: its view reconciled whole (its layout may have changed), any copy
    /// without location may have lost its last entry, its Flatpak override follows, and the grant
    /// alarm is woken for a timed status.
    public static func statusChanged(_ app: AppRecord, confirmed: Bool) -> SettleActs {
        SettleActs(reconcile: .apps([app.id]), derivatives: .all, kinds: .grantAlarm,
                   picturesFollow: [PicturesFollow(app: app, confirmed: confirmed)])
    }

    /// The acts of both changes, done once: the wider reconcile and clean-up, every kind, every follow
    /// (the later one of an app replacing the earlier: it holds the status as it ends).
    public func merged(with other: SettleActs) -> SettleActs {
        var merged = self
        switch (reconcile, other.reconcile) {
        case (.every, _), (_, .every): merged.reconcile = .every
        case (.apps(let mine), .apps(let theirs)): merged.reconcile = .apps(mine.union(theirs))
        }
        switch (derivatives, other.derivatives) {
        case (.untouched, let theirs): merged.derivatives = theirs
        case (_, .untouched): break
        case (.members(let mine), .members(let theirs)): merged.derivatives = .members(mine + theirs)
        case (.library(let mine), .library(let theirs)): merged.derivatives = .library(mine + theirs)
        default: merged.derivatives = .all
        }
        merged.kinds.formUnion(other.kinds)
        for follow in other.picturesFollow {
            merged.picturesFollow.removeAll { $0.app.id == follow.app.id }
            merged.picturesFollow.append(follow)
        }
        return merged
    }
}
