import Synchronization
import PhotoLibCore
import PhotoLibGeoNames
import PhotoLibSystem

/// A places pass's gazetteer, loaded by the first look that finds a coordinate and shared by the
/// pass's threads: a pass over files that say nowhere (most bursts) never loads it, nor libgeonames.
///
/// A load that fails is not tried again within the pass: every look after it gets the same problem.
final class OnDemandGazetteer: Sendable {
    private let loaded = Mutex<Result<Gazetteer, LibraryLoadProblem>?>(nil)
    private let load: @Sendable () throws(LibraryLoadProblem) -> Gazetteer

    init(load: @escaping @Sendable () throws(LibraryLoadProblem) -> Gazetteer = { () throws(LibraryLoadProblem) in
        Gazetteer(try GeoNamesData.cities())
    }) {
        self.load = load
    }

    /// The gazetteer, loaded now when no look needed it before (the others wait for that one load).
    func get() throws(LibraryLoadProblem) -> Gazetteer {
        let outcome = loaded.withLock { held in
            if let held { return held }
            let outcome = Result { () throws(LibraryLoadProblem) in try load() }
            held = outcome
            return outcome
        }
        return try outcome.get()
    }

    /// Why it could not be loaded, when a look needed it and it could not.
    var problem: LibraryLoadProblem? {
        loaded.withLock { held in
            if case .failure(let problem)? = held { return problem }
            return nil
        }
    }

    /// Frees it; whether some look had loaded it.
    func letGo() -> Bool {
        loaded.withLock { held in
            defer { held = nil }
            if case .success? = held { return true }
            return false
        }
    }
}
