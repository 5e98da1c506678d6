import Dispatch
import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// How a pick ends without an answer: its app's connection closes, the daemon restarts, or the app cancels it.
extension Engine {
    /// The connection's picks are withdrawn: it closed, so no answer can reach it.
    func withdrawPicks(of connection: ObjectIdentifier) async {
        await readyForChange()
        withdrawPicksNow(of: connection)
    }

    /// `withdrawPicks`, inside a change already under way.
    func withdrawPicksNow(of connection: ObjectIdentifier) {
        for id in requests.picks.forget(connection: connection) {
            do {
                if let request = try store.read({ try $0.request(id: id) }) { withdrawRequest(request) }
            } catch {
                logger.error("Cannot withdraw pick request \(id): \(error); it is dropped at the next start.")
            }
        }
    }

    /// `withdrawRequest`, once it can run to its settle without waiting on a thread.
    func withdrawWhenReady(_ request: AccessRequest) async {
        await readyForChange()
        withdrawRequest(request)
    }

    /// Removes a pick whose app is no longer there to receive it.
    func withdrawRequest(_ request: AccessRequest) {
        do {
            try settle(try store.write { tx in try requests.withdraw(request, journal: journal, tx: tx) })
            logger.notice("Request \(request.id) of \(request.app) was withdrawn: the connection that asked closed.")
        } catch {
            logger.error("Cannot withdraw pick request \(request.id): \(error); it is dropped at the next start.")
        }
    }

    /// Drops picks left from before a restart: the connections that asked are gone.
    func dropStalePicks() {
        do {
            let dropped = try store.write { try $0.deletePicks() }
            if !dropped.isEmpty { logger.notice("Dropped \(dropped.count) pick requests left from before the restart: the apps that asked were disconnected.") }
        } catch {
            logger.error("Cannot drop the picks left from before the restart: \(error); 'photolibctl answer N cancel' removes them.")
        }
    }

    /// Hands a cancelled pick its reply: nothing chosen, no descriptor.
    func cancelPick(_ request: AccessRequest, reason: CancelReason? = nil) {
        guard let waiter = requests.picks.claim(request.id) else { return }
        let result = PickResult(request: request.id, state: RequestState.cancelled.rawValue, assets: [], reason: reason?.rawValue)
        Task {
            do {
                try await waiter.deliver(result, [])
            } catch {
                // The app left first: there is no one to tell.
            }
        }
    }
}
