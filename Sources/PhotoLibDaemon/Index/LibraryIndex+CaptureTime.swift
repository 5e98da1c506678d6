import PhotoLibCore
import PhotoLibStore

/// Capture times for rule grants, read as the index adds or changes files.
extension LibraryIndex {
    /// Looks at when a new or changed member was taken, while some app has a
    /// rule grant (`captureClock` is set), and stores it before the change is recorded.
    func noteCaptureTime(_ member: inout MemberRecord, contentChanged: Bool = true, tx: StoreTransaction) throws {
        guard let captureClock, contentChanged || member.takenAt == nil, let album = albums.path(of: member.album) else { return }
        // Read by the batch's probe where it looked (nil there: the file could not be opened then).
        let probed = probe?.takenAt[album.appending(member.name)]
        guard let taken = probed ?? captureClock.takenAt(album: album, name: member.name, file: member.file) else { return }
        try tx.setCaptureTime(taken, memberRowID: member.rowID)
        member.takenAt = taken
    }
}
