/// Why an original is left out of every view (SPEC §3: a refused original is refused alone).
///
/// Judged from the file's `statx` when it is indexed, or learned from the
/// kernel when a link fails; stored with the asset so `assets` and `doctor`
/// can name it, and cleared when the file changes.
public enum LinkRefusal: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Owned by another user: `fs.protected_hardlinks` refuses the link, and
    /// linking it would hand out a file the owner does not control.
    case ownedByAnotherUser
    /// Group or other may write it: an app could change the original through its view.
    case writableByOthers
    /// Set-user-ID or set-group-ID.
    case setID
    /// The kernel refused the link (`EPERM`: immutable or append-only, for instance).
    case linkNotPermitted
    /// The file has as many hardlinks as its filesystem allows (`EMLINK`).
    case tooManyLinks
    /// With views as clones: the library's owner may not read it (`EACCES`), so no clone can
    /// be made. A hard link needs no read, so with links such a file is linked (and unreadable).
    case unreadableByOwner

    /// The refusal a file's own facts call for, or `nil` when it may be linked.
    /// `daemonUID` is the uid photolibd runs as: the library's owner.
    public static func judge(_ file: FileObservation, daemonUID: UInt32) -> LinkRefusal? {
        if file.owner != daemonUID { return .ownedByAnotherUser }
        if file.facts.permissions & 0o6000 != 0 { return .setID }
        if file.facts.isWritableByOthers { return .writableByOthers }
        return nil
    }

    // Linux's numbers, as in `FileSystemFailure`.
    static let notPermitted: Int32 = 1   // EPERM
    static let tooManyLinksErrno: Int32 = 31   // EMLINK

    /// The refusal a failed link means, or `nil` when the failure is not about the file itself.
    public init?(linkFailure errno: Int32) {
        switch errno {
        case Self.notPermitted: self = .linkNotPermitted
        case Self.tooManyLinksErrno: self = .tooManyLinks
        default: return nil
        }
    }

    /// A sentence for `assets` and `doctor`: what is wrong, and what to do.
    public var explanation: String {
        switch self {
        case .ownedByAnotherUser:
            return "it belongs to another user, so the kernel (fs.protected_hardlinks) will not let the library's owner link it; chown it to the library's owner"
        case .writableByOthers:
            return "other users may write it, and an app could change the original through its view; run chmod go-w on it"
        case .setID:
            return "it is set-user-ID or set-group-ID; run chmod ug-s on it"
        case .linkNotPermitted:
            return "the kernel refused to link it (EPERM: immutable or append-only?); check lsattr and chattr -i"
        case .tooManyLinks:
            return "it has as many hardlinks as its filesystem allows (EMLINK); remove some of its other links"
        case .unreadableByOwner:
            return "the library's owner may not read it, so no clone of it can be made for a view; run chmod u+r on it"
        }
    }
}
