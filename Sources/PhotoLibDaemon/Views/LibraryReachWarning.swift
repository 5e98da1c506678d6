import Logging
import PhotoLibCore
import PhotoLibDoctor
import PhotoLibSystem

/// Warns in the log when an app uid could open the library itself, going
/// around its view (SPEC §4): judged as `doctor` judges it, with that uid's
/// groups and every ACL on the way, and said again only when the verdict changes.
///
/// Owns each app uid's supplementary groups, looked up once (a lookup reads
/// /etc/passwd and /etc/group: adding the thousandth app must not look up 999
/// again), and the warning last logged, so a rescan does not repeat it.
final class LibraryReachWarning {
    private let library: String
    private let logger: Logger
    private var groups: [UInt32: Set<UInt32>] = [:]
    private var last: String?

    init(library: String, logger: Logger) {
        self.library = library
        self.logger = logger
    }

    /// Judges the library's reach for these apps, and logs the verdict when it is a new warning.
    func check(_ apps: [AppRecord]) {
        let uids = Set(apps.map(\.uid))
        groups = groups.filter { uids.contains($0.key) }
        for uid in uids where groups[uid] == nil { groups[uid] = PathInspection.groups(ofUser: uid) }
        let known = groups
        let facts = SetupSurvey.gatherLibraryReach(
            library: library, apps: apps.map { .init(id: $0.id.rawValue, uid: $0.uid, view: "") }, groups: { known[$0] ?? [] })
        let verdict = DoctorVerdicts.libraryPrivacy(facts)
        let warning = verdict.outcome == .fail ? verdict.detail + " " + (verdict.advice ?? "") : nil
        if warning != last, let warning { logger.warning("\(warning)") }
        last = warning
    }
}
