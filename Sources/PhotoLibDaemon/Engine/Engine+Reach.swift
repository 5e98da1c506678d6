import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// A network library's server away and back (`LibraryReach`): status, doctor, the page and a
// `library` event say so; nothing is taken for gone meanwhile.
extension Engine {
    /// Whether the library is on a network or FUSE filesystem, whose server may stop answering.
    var libraryIsRemote: Bool { rounds.isRemote }

    /// Looks at whether the library's thread has waited too long in one call (a hung mount answers
    /// nothing, not even an error). Called every few seconds, whatever the library's thread is doing.
    func checkLibraryHeld() {
        let held = libraryLane.busyFor.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 }
        note(rounds.held(forMilliseconds: held, at: clock.now()))
    }

    /// Takes a transition to the board, the log and every subscriber; at the return, every view is
    /// checked whole (what could not be removed from a view on the server while it was away goes now).
    func note(_ transition: LibraryReach.Transition?) {
        guard let transition else { return }
        let outage: LibraryOutage?
        switch transition {
        case .lost(let lost):
            outage = lost
            views.libraryUnreachable = true
            board.update { $0.outage = lost }
            logger.warning("The library \(configuration.library) is unavailable: \(lost.reason). Nothing in it is taken for gone meanwhile; rounds go on, and the first one the server answers brings everything up to date.")
        case .returned(let ended, let at):
            outage = nil
            views.libraryUnreachable = false
            board.update { $0.outage = nil }
            logger.notice("The library's server answers again, after \(max(at - ended.since, 0)) s away; checking every view.")
            do {
                try settle(ChangeSet(reconcile: .every))
            } catch {
                logger.error("Checking the views after the library's server came back failed: \(error). The next change or 'photolibctl rescan' tries again.")
            }
        }
        do {
            let apps = try store.read { tx in try tx.apps().map(\.id) }
            hub.publish(try journal.libraryEvents(apps, outage: outage))
        } catch {
            logger.error("Could not tell subscribers the library is \(outage == nil ? "available" : "unavailable"): \(error). status says so.")
        }
    }
}
