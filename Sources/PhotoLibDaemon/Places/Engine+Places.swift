import PhotoLibCore
import PhotoLibStore

// Where photos were taken: the place finder looks outside any transaction; the engine records.
extension Engine {
    /// Records what the place finder found, and the places it named, in one write transaction
    /// (no system call in it). Nothing to settle: no view holds a place and no app hears of one.
    func recordPlaces(_ results: [PlaceResult], newPlaces: [PlaceRecord]) throws {
        try store.write { tx in
            for place in newPlaces { try tx.insertPlace(place) }
            try tx.recordPlaces(results)
        }
    }

    /// Files that could not be read at the last look are looked at again once per start.
    func retryUnreadablePlaces() throws {
        try store.write { try $0.retryUnreadablePlaces() }
    }
}
