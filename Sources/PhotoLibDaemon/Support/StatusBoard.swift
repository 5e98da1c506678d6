import PhotoLibCore
import Synchronization

/// Live figures about the daemon, readable from any thread without waiting for the engine.
///
/// The engine may be busy for seconds in a first scan; `status` must still
/// answer at once and show progress, so it reads here rather than asking the engine.
final class StatusBoard: Sendable {
    enum Phase: String, Sendable {
        case starting, scanning, ready, libraryMissing
    }

    struct Snapshot: Sendable {
        var phase: Phase = .starting
        var scannedDirectories = 0
        var scannedFiles = 0
        var watches = 0
        var failedWatches = 0
        /// Library paths that cannot be read now (their assets are kept as they were).
        var unreadable: [RelativePath] = []
        /// Derivatives without location on disk, and their bytes.
        var derivatives = 0
        var derivativeBytes: Int64 = 0
        /// Files withheld from apps without location: whether they hold one cannot be told.
        var withheldFromNoLocation = 0
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ body: (inout Snapshot) -> Void) {
        state.withLock { body(&$0) }
    }
}
