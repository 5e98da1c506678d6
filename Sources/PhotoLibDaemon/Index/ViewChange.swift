import PhotoLibCore
import PhotoLibStore

/// An asset as it stood at one moment: its record and its full path in the library.
struct LocatedAsset: Sendable, Equatable {
    var record: AssetRecord
    var path: RelativePath
    /// The asset's album and every album above it, for live album grants.
    var ancestry: [AlbumTree.ID]
}

/// One change the views must follow, in the order the index applied it.
///
/// Paths are those at the moment of the change, so applying a list in order
/// to a view is always consistent, whatever happened later in the batch.
enum ViewChange: Sendable, Equatable {
    case albumCreated(RelativePath)
    case albumMoved(from: RelativePath, to: RelativePath)
    case albumRemoved(RelativePath)
    /// `old == nil`: inserted; `new == nil`: removed; both: moved and/or content changed.
    case asset(old: LocatedAsset?, new: LocatedAsset?)
}

/// Collects view changes while the index works (or drops them, during a full scan
/// that is followed by a full reconcile anyway).
final class ChangeRecorder {
    private(set) var changes: [ViewChange] = []
    let isRecording: Bool

    init(recording: Bool) {
        isRecording = recording
    }

    func record(_ change: ViewChange) {
        if isRecording { changes.append(change) }
    }
}
