import Logging
import PhotoLibCore
import PhotoLibStore

/// Bursts on both cores: a batch's links are made on other threads
/// (`LinkFlight`) while the engine indexes the next batch, and land (their
/// outcomes learned, views reconciled where needed, events published, in
/// batch order) right after that batch's transaction and before the engine
/// waits for anything: no other request, and no view change of the next
/// batch, ever sees links in flight.
extension Engine {
    /// What is left of a batch once its links are made.
    struct BatchTail {
        /// nil when nothing was left in flight.
        let flight: LinkFlight?
        /// Apps whose views need a full reconcile.
        let dirty: Set<AppID>
        let changes: [ViewChange]
        let published: [PublishedEvent]
    }

    /// Lands the last batch's links, if any are in flight, and finishes that batch.
    func landTail() throws {
        guard let tail else { return }
        self.tail = nil
        try finish(tail)
    }

    /// Finishes a batch: reconciles the views that need it, drops derivatives no view
    /// links any more, stores what was learned, and publishes the batch's events.
    func finish(_ tail: BatchTail) throws {
        let dirty = tail.dirty.union(tail.flight.map(views.land) ?? [])
        for app in dirty {
            if let record = try store.read({ try $0.app(app) }) {
                _ = try views.reconcile(record, index: index, store: store, libraryAvailable: libraryAvailable)
            }
        }
        // Derivatives of files that changed or went, once no view links them.
        collectDerivatives(members: tail.changes.flatMap(\.memberRowIDs))
        let still = Set(tail.changes.compactMap(\.newAsset).flatMap { $0.members.map(\.rowID) })
        views.derivatives.forget(members: tail.changes.flatMap { change -> [Int64] in
            guard case .asset(let old?, nil) = change else { return [] }
            return old.members.map(\.rowID).filter { !still.contains($0) }
        })
        try recordLearnedRefusals()
        hub.publish(tail.published)
    }

    /// Lands what is in flight; a failure there is handled as a failed batch is: by a rescan.
    func landTailOrRescan() {
        do {
            try landTail()
        } catch {
            logger.error("Finishing a batch of library changes failed: \(error); rescanning.")
            do {
                try rescanAndReconcile()
            } catch {
                logger.error("The rescan after that failed too: \(error). The views stay as they were; the next library change, or 'photolibctl rescan', tries again.")
            }
        }
    }

    /// Lands what is in flight before a rescan, which reconciles every view anyway.
    func landTailOrLog() {
        do {
            try landTail()
        } catch {
            logger.warning("Finishing the previous batch failed too: \(error); the rescan repairs its views.")
        }
    }
}
