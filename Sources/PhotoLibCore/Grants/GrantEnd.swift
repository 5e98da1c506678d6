/// When a grant ends (SPEC §9): `select … --for 1h|--until TIME` and
/// `authorize … --for 1d`. Pure: the daemon's clock is passed in.
public enum GrantEnd {
    /// The longest a timed grant may run: ten years, so a typo in a unit is caught.
    public static let longest: Int64 = 10 * 366 * 86_400

    /// Seconds in a duration as a person types it: a whole number and a unit,
    /// `s`, `m`, `h`, `d` or `w` (`90s`, `15m`, `2h`, `1d`, `2w`), or several
    /// of them together (`1h30m`).
    public static func parseDuration(_ text: String) throws(PhotoLibError) -> Int64 {
        let invalid = PhotoLibError.invalidParameter(
            name: "for", reason: "'\(text)' is not a duration; write a number and a unit: 90s, 15m, 2h, 1d, 2w, or 1h30m")
        var total: Int64 = 0
        var number: Int64?
        var sawUnit = false
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (times, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                guard !overflow, times <= longest else { throw invalid }
                number = times + Int64(digit)
                continue
            }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            case "w": unit = 604_800
            default: throw invalid
            }
            guard let value = number, value <= longest / unit else { throw invalid }
            total += value * unit
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil, total > 0 else { throw invalid }
        guard total <= longest else {
            throw .invalidParameter(name: "for", reason: "'\(text)' is longer than ten years; leave --for out for a grant that lasts")
        }
        return total
    }

    /// The instant a grant made `now` ends: after `seconds`, or at `until`
    /// (seconds since the epoch); nil when neither is given (it lasts).
    public static func expiry(now: Int64, forSeconds seconds: Int64?, until: Int64?) throws(PhotoLibError) -> Int64? {
        switch (seconds, until) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw .invalidParameter(name: "until", reason: "give --for or --until, not both")
        case (let seconds?, nil):
            guard seconds > 0, seconds <= longest else {
                throw .invalidParameter(name: "for", reason: "\(seconds) s is not between 1 s and ten years")
            }
            return now + seconds
        case (nil, let until?):
            guard until > now else { throw .grantEndsInPast(until: until, now: now) }
            guard until - now <= longest else {
                throw .invalidParameter(name: "until", reason: "it is more than ten years away; leave --until out for a grant that lasts")
            }
            return until
        }
    }
}

/// One grant with an end, as the store keeps it.
public struct ExpiringGrant: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An asset selected one by one (its row).
        case asset(Int64)
        case album(AlbumTree.ID)
        /// A status for an access level, and the status it returns to.
        case authorization(AccessLevel, returnsTo: AuthorizationStatus)
    }

    public var app: AppID
    public var kind: Kind
    /// Seconds since the epoch.
    public var endsAt: Int64

    public init(app: AppID, kind: Kind, endsAt: Int64) {
        self.app = app
        self.kind = kind
        self.endsAt = endsAt
    }

    /// The grants that have ended by `now`, and the next end after them (nil: none).
    public static func due(_ grants: [ExpiringGrant], now: Int64) -> (ended: [ExpiringGrant], next: Int64?) {
        let ended = grants.filter { $0.endsAt <= now }
        let next = grants.lazy.filter { $0.endsAt > now }.map(\.endsAt).min()
        return (ended, next)
    }

    /// The status to return to when a timed status is set: the one before the
    /// first timed status, so two timed grants in a row end where they began.
    public static func returnStatus(current: AuthorizationStatus, pendingReturn: AuthorizationStatus?) -> AuthorizationStatus {
        pendingReturn ?? current
    }
}
