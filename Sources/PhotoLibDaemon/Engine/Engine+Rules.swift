import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Rule grants (SPEC §9): every asset taken in a span, live.
extension Engine {
    /// Makes a rule grant. Every file not looked at yet is looked at for when
    /// it was taken (once; from then on the index looks at each new or changed
    /// file while a rule exists), the app's view is linked again, and it is told to reload.
    func addRule(_ id: AppID, from: Int64, to: Int64, mediaType: MediaType?) async throws -> CaptureRule {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        index.readsCaptureTimes = true
        // In the library's turn: no batch records a file's content between this look and its write.
        await takeLibraryTurn()
        defer { endLibraryTurn() }
        try await lookAtCaptureTimes()
        await readyForChange()
        let (rule, plan, published) = try store.write { tx in try grants.addRule(app, from: from, to: to, mediaType: mediaType, tx: tx) }
        try settle(ChangeSet(acts: plan.acts, events: published))
        logger.notice("App \(id) was given every \(mediaType?.rawValue ?? "asset") taken from \(from) to \(to) (rule \(rule.id)).")
        return rule
    }

    /// Removes rule grants (all of the app's when `ids` is nil).
    func removeRules(_ id: AppID, ids: [Int64]?) throws -> [CaptureRule] {
        guard let app = try store.read({ try $0.app(id) }) else { throw PhotoLibError.unknownApp(id) }
        let (plan, published) = try store.write { tx in try grants.removeRules(app, ids: ids, tx: tx) }
        try settle(ChangeSet(acts: plan.acts, events: published))
        if try store.read({ try !$0.anyRules() }) { index.readsCaptureTimes = false }
        logger.notice("App \(id) lost \(plan.removed.count) rule grants.")
        return plan.removed
    }

    /// Looks at when every file not looked at yet was taken, on the library's thread, and stores it.
    private func lookAtCaptureTimes() async throws {
        guard let look = try index.captureTimeLook() else { return }
        let looker = libraryLooker
        let found = await libraryLane.run { look.perform(looker: looker) }
        try index.recordCaptureTimes(found)
        logger.info("Looked at when \(found.count) files were taken, for rule grants.")
    }
}
