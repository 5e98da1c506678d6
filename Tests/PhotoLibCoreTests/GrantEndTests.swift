import PhotoLibCore
import Testing

/// When grants end: durations as people type them, --for against --until, and what is due.
@Suite("Grant ends")
struct GrantEndRuleTests {
    @Test("durations: a number and a unit, or several", arguments: [
        ("90s", 90), ("15m", 900), ("2h", 7_200), ("1d", 86_400), ("2w", 1_209_600), ("1h30m", 5_400),
    ] as [(String, Int64)])
    func durations(text: String, seconds: Int64) throws {
        #expect(try GrantEnd.parseDuration(text) == seconds)
    }

    @Test("what is not a duration is refused with how to write one", arguments: ["", "2", "h", "1x", "0s", "-1h", "1.5h", "1 h", "99999999999d"])
    func notDurations(text: String) {
        #expect(throws: PhotoLibError.self) { try GrantEnd.parseDuration(text) }
    }

    @Test("an end: after --for, at --until, never in the past, never both")
    func ends() throws {
        #expect(try GrantEnd.expiry(now: 1_000, forSeconds: nil, until: nil) == nil)
        #expect(try GrantEnd.expiry(now: 1_000, forSeconds: 60, until: nil) == 1_060)
        #expect(try GrantEnd.expiry(now: 1_000, forSeconds: nil, until: 5_000) == 5_000)
        #expect(throws: PhotoLibError.grantEndsInPast(until: 1_000, now: 1_000)) { try GrantEnd.expiry(now: 1_000, forSeconds: nil, until: 1_000) }
        #expect(throws: PhotoLibError.self) { try GrantEnd.expiry(now: 1_000, forSeconds: 60, until: 5_000) }
        #expect(throws: PhotoLibError.self) { try GrantEnd.expiry(now: 1_000, forSeconds: 0, until: nil) }
    }

    @Test("what is due now, and when the next one ends; a status returns to where the first timed one began")
    func due() {
        let app = AppID("org.example.A")!
        let grants = [ExpiringGrant(app: app, kind: .asset(1), endsAt: 10), ExpiringGrant(app: app, kind: .album(2), endsAt: 20),
                      ExpiringGrant(app: app, kind: .authorization(.readWrite, returnsTo: .limited), endsAt: 30)]
        let (ended, next) = ExpiringGrant.due(grants, now: 20)
        #expect(ended.map(\.endsAt) == [10, 20] && next == 30)
        #expect(ExpiringGrant.due(grants, now: 5).ended.isEmpty && ExpiringGrant.due(grants, now: 40).next == nil)
        #expect(ExpiringGrant.returnStatus(current: .authorized, pendingReturn: .limited) == .limited)
        #expect(ExpiringGrant.returnStatus(current: .limited, pendingReturn: nil) == .limited)
    }
}
