/// Collects view changes while the index works (or drops them, during a full scan
/// that is followed by a full reconcile anyway).
///
/// Bounded: past `limit` changes it stops keeping them and reports
/// `overflowed`, and the apps are told to reload rather than sent a list
/// that would not fit in memory (a first scan of 100,000 files, say).
public final class ChangeRecorder {
    public private(set) var changes: [ViewChange] = []
    public private(set) var overflowed = false
    public let isRecording: Bool
    public let limit: Int

    public init(recording: Bool, limit: Int = .max) {
        isRecording = recording
        self.limit = limit
    }

    /// Keeps a change; `change` is not evaluated when nothing is recorded
    /// (a full scan's snapshots of assets would cost a query each).
    public func record(_ change: @autoclosure () throws -> ViewChange) rethrows {
        guard isRecording, !overflowed else { return }
        if changes.count >= limit {
            overflowed = true
            changes = []
            return
        }
        changes.append(try change())
    }
}
