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

    /// Whether a batch, committed, waits for the last one's links (`SettleGate`).
    var isWaitingForLinks: Bool { carried.gate.held }

    /// How many flights a thread waited for (`ViewMaintainer.landingsThatWaited`).
    var landingsThatWaited: Int { views.landingsThatWaited }

    /// Lands the last batch's links, if any are in flight, and settles that batch.
    func landTail() throws {
        guard let tail = carried.tail else { return }
        carried.tail = nil
        try settle(tail)
    }

    /// Waits, holding no thread, until a change can run to its settle without waiting on one: no
    /// batch between its commit and its settle (`SettleGate`), and the last batch's links made.
    /// Every change sent to the engine from outside (`change`) and every change it starts itself
    /// comes here first; what runs after it, to the settle, does not suspend.
    func readyForChange() async {
        while true {
            if carried.gate.held {
                await withCheckedContinuation { carried.gate.wait($0) }
            } else if let flight = carried.tail?.flight, !flight.isDone {
                await flight.finished()
            } else {
                return
            }
        }
    }

    /// Runs a change sent from outside the engine (a request, a service's turn) once it can run
    /// to its settle without waiting on a thread (`readyForChange`).
    func change<T: Sendable>(_ body: @Sendable (isolated Engine) throws -> T) async throws -> T {
        await readyForChange()
        return try body(self)
    }

    /// In a batch between its commit and its settle: waits, holding no thread, for the last batch's
    /// links, the gate held so that no other change settles in between.
    func awaitTailHoldingGate() async {
        guard let flight = carried.tail?.flight, !flight.isDone else { return }
        carried.gate.hold()
        await flight.finished()
        carried.gate.release()
    }

    /// Lands what is in flight; a failure there is handled as a failed batch is: by a rescan.
    func landTailOrRescan() async {
        await readyForChange()
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
