import PhotoLibCore
import PhotoLibSystem

/// A pick the person answered, with its files open, ready to hand over.
struct PreparedPick: Sendable {
    let request: AccessRequest
    let waiter: PickWaiter
    let deliveries: [PickPolicy.Delivery]
    /// The app's own asset IDs, which it is told.
    let ids: AppAssetIDs?
    /// One per delivered member, in order: the original (or its derivative without location)
    /// and the original's album directory, to make a copy in.
    let opened: [OpenedMember]
    /// What the files' metadata loses on the way (serial numbers; captions and people unless shared).
    let removal: MetadataRemoval
    /// Whether location leaves with them: when not, a JPEG made for the app is checked for none.
    let locationAllowed: Bool

    struct OpenedMember: Sendable {
        let member: LocatedMember
        /// The original, or its derivative without location.
        let original: FileDescriptor
        /// Its size (a derivative's differs from the original's).
        let size: Int64
        /// The original's directory, where a copy is made.
        let copyDirectory: FileDescriptor
        /// The app runs as the owner: it gets a private copy even of a file that loses nothing.
        let mustCopy: Bool
        /// As it is, or as a JPEG made from it (`FormatDecision`).
        let format: FormatDecision
    }

    func closeAll() {
        for file in opened {
            file.original.close()
            file.copyDirectory.close()
        }
    }
}
