import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Bursts on both cores: a batch's links are made on other threads
/// (`LinkFlight`) while the engine indexes the next batch, and land (their
/// outcomes learned, views reconciled where needed, events published, in
/// batch order) right after that batch's transaction and before the engine
/// waits for anything: no other request, and no view change of the next
/// batch, ever sees links in flight.
extension Engine {
    /// Whether the last batch's links are being made and it is not settled yet.
    var hasTailInFlight: Bool { carried.tail != nil }

    /// Lands the last batch's links, if any are in flight, and settles that batch.
    func landTail() throws {
        guard let tail = carried.tail else { return }
        carried.tail = nil
        try settle(tail)
    }

    /// Lands what is in flight; a failure there is handled as a failed batch is: by a rescan.
    func landTailOrRescan() async {
        do {
            try landTail()
        } catch is StopRequested {
            logger.notice("Stopping while a batch's links landed: the views are brought up to date at the next start.")
        } catch {
            logger.error("Finishing a batch of library changes failed: \(error); rescanning.")
            await takeLibraryTurn()
            defer { endLibraryTurn() }
            do {
                try await rescanAndReconcile()
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
