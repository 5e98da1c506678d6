import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// When files were taken, for rule grants (SPEC §9): looked at while some app has a rule, by the index
/// for each new or changed file, and here for every file not looked at yet when the first rule is made.
extension LibraryIndex {
    /// Whether the index looks at when each new or changed file was taken: while any rule grant exists.
    var readsCaptureTimes: Bool {
        get { captureClock != nil }
        set {
            if !newValue {
                captureClock = nil
            } else if captureClock == nil {
                captureClock = CaptureClock(access: access)
            }
        }
    }

    /// The files not looked at yet, to look at off the engine (`CaptureTimeLook.perform`); nil when there
    /// are none or no rule asks for it. The look holds a duplicate of the library's root, which `perform`
    /// hands to its looker, as a probe does.
    func captureTimeLook() throws -> CaptureTimeLook? {
        guard readsCaptureTimes else { return nil }
        let missing = try store.read { try $0.membersWithoutCaptureTime() }
        guard !missing.isEmpty else { return nil }
        return CaptureTimeLook(missing: missing, albums: albums, root: try Directory.duplicate(access.root))
    }

    /// Stores what a look found, in one transaction.
    func recordCaptureTimes(_ found: [CaptureTimeLook.Found]) throws {
        try store.write { tx in
            for (row, taken) in found { try tx.setCaptureTime(taken, memberRowID: row) }
        }
    }
}

/// A look at when files were taken, made on a thread of its own: the first rule reads every file of the library once.
struct CaptureTimeLook: Sendable {
    typealias Found = (row: Int64, taken: Int64)

    let missing: [MemberRecord]
    let albums: AlbumTree
    let root: FileDescriptor

    /// Looks at each file through `looker`'s view of the library; a file that cannot be opened now is left
    /// for its next change.
    func perform(looker: LibraryLookerMaker) -> [Found] {
        let clock = CaptureClock(access: looker(root))
        return missing.compactMap { member in
            guard let album = albums.path(of: member.album),
                  let taken = clock.takenAt(album: album, name: member.name, file: member.file) else { return nil }
            return (member.rowID, taken)
        }
    }
}
