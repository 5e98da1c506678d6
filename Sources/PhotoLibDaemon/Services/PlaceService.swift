import Logging
import ServiceLifecycle

/// Runs the place finder (`PlaceFinder`) each time the engine says files wait to be looked at.
struct PlaceService: Service {
    let engine: Engine
    let finder: PlaceFinder

    func run() async throws {
        do {
            try await engine.retryUnreadablePlaces()
        } catch {
            finder.logger.warning("Cannot mark the files that could not be read for another look: \(error).")
        }
        let wake = engine.placesDue
        await withGracefulShutdownHandler {
            for await _ in wake.signals.cancelOnGracefulShutdown() {
                do {
                    try await finder.pass { results, places in try await engine.recordPlaces(results, newPlaces: places) }
                } catch {
                    // Tried again at the next change or start: a place is a convenience, never a reason to stop.
                    finder.logger.warning("Naming where photos were taken stopped: \(error); the next change tries again.")
                }
            }
        } onGracefulShutdown: {
            finder.stop()
            wake.finish()
        }
    }
}
