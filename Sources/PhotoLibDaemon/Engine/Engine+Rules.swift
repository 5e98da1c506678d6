import Logging
import PhotoLibCore
import PhotoLibStore

/// Rule grants (SPEC §9): every asset taken in a span, live.
extension Engine {
    /// Makes a rule grant. Every file not looked at yet is looked at for when
    /// it was taken (once; from then on the index looks at each new or changed
    /// file while a rule exists), the app's view is linked again, and it is told to reload.
    func addRule(_ id: AppID, from: Int64, to: Int64, mediaType: MediaType?) throws -> CaptureRule {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        if index.captureClock == nil { index.captureClock = CaptureClock(access: index.access) }
        try lookAtCaptureTimes()
        var published: [PublishedEvent] = []
        let rule = try store.write { tx -> CaptureRule in
            let (rule, isNew) = try tx.insertRule(id, from: from, to: to, mediaType: mediaType)
            if isNew, app.layout == .limited { published.append(try journal.recordReload(id, tx: tx)) }
            return rule
        }
        try settle(ChangeSet(reconcile: .apps([id]), derivatives: .all, events: published))
        logger.notice("App \(id) was given every \(mediaType?.rawValue ?? "asset") taken from \(from) to \(to) (rule \(rule.id)).")
        return rule
    }

    /// Removes rule grants (all of the app's when `ids` is nil).
    func removeRules(_ id: AppID, ids: [Int64]?) throws -> [CaptureRule] {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        var published: [PublishedEvent] = []
        let removed = try store.write { tx -> [CaptureRule] in
            let removed = try tx.deleteRules(id, ids: ids)
            if !removed.isEmpty, app.layout == .limited { published.append(try journal.recordReload(id, tx: tx)) }
            return removed
        }
        try settle(ChangeSet(reconcile: .apps([id]), derivatives: .all, events: published))
        if try store.read({ try !$0.anyRules() }) { index.captureClock = nil }
        logger.notice("App \(id) lost \(removed.count) rule grants.")
        return removed
    }

    /// Looks at when every file not looked at yet was taken, and stores it.
    private func lookAtCaptureTimes() throws {
        let missing = try store.read { try $0.membersWithoutCaptureTime() }
        guard !missing.isEmpty, let clock = index.captureClock else { return }
        defer { index.access.invalidate() }
        var found: [(row: Int64, taken: Int64)] = []
        for member in missing {
            guard let album = index.albums.path(of: member.album),
                  let taken = clock.takenAt(album: album, name: member.name, file: member.file) else { continue }
            found.append((member.rowID, taken))
        }
        try store.write { tx in
            for (row, taken) in found { try tx.setCaptureTime(taken, memberRowID: row) }
        }
        logger.info("Looked at when \(found.count) files were taken, for rule grants.")
    }
}
