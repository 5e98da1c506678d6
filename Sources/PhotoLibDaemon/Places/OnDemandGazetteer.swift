import Synchronization
import PhotoLibCore
import PhotoLibGeoNames
import PhotoLibSystem

/// A places pass's gazetteer, loaded by the first look that finds a coordinate and shared by the
/// pass's threads: a pass over files that say nowhere (most bursts) never loads it.
final class OnDemandGazetteer: Sendable {
    private let loaded = Mutex<Gazetteer?>(nil)
    private let load: @Sendable () -> Gazetteer

    init(load: @escaping @Sendable () -> Gazetteer = { Gazetteer(GeoNamesData.cities()) }) {
        self.load = load
    }

    /// The gazetteer, loaded now when no look needed it before (the others wait for that one load).
    func get() -> Gazetteer {
        loaded.withLock { held in
            if let held { return held }
            let gazetteer = load()
            held = gazetteer
            return gazetteer
        }
    }

    /// Frees it; whether some look had needed it.
    func letGo() -> Bool {
        loaded.withLock { held in
            defer { held = nil }
            return held != nil
        }
    }
}
