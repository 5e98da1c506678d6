/// How a limited Flatpak app's Pictures folder holds the photos it may see (SPEC §11).
///
/// The app runs as the library's owner in a folder it may write, so hard links there would let it
/// change the originals: never links. In order of preference:
/// - `clones`: reflink clones in the folder, where its filesystem clones (btrfs, XFS): they share
///   the originals' blocks, and an app that writes one changes only its own clone;
/// - `mirror`: the view kept as links in a directory only the owner can enter, served onto the
///   folder read-only by photolibd-viewfs (FUSE): nothing copied, nothing writable, and what the
///   app saves goes to its inbox;
/// - `copies`: full copies, only where neither of those can be used, with the reason.
public enum PicturesFolderForm: Sendable, Equatable {
    case clones
    case mirror
    case copies(reason: String)

    /// The form for a folder whose filesystem clones or not, where FUSE can be used or not.
    public static func decide(clones: CloneSupport, fuse: FuseSupport) -> PicturesFolderForm {
        if clones == .supported { return .clones }
        switch fuse {
        case .available: return .mirror
        case .unavailable(let reason):
            guard case .unsupported(let cloneReason) = clones else { return .clones }
            return .copies(reason: "its filesystem cannot clone (\(cloneReason)) and FUSE cannot be used (\(reason))")
        }
    }

    /// The word `status`, `doctor` and the page use.
    public var name: String {
        switch self {
        case .clones: "clones"
        case .mirror: "fuse"
        case .copies: "copies"
        }
    }
}

/// Whether photolibd can mount a read-only FUSE view here, as a probe found, and if not why
/// (no /dev/fuse, no setuid fusermount3, no new privileges for this process, the server missing).
public enum FuseSupport: Sendable, Equatable {
    case available
    case unavailable(reason: String)
}
