/// What one watch event about a file means for its row: the pure half of
/// `LibraryIndex`'s event handling.
public enum FileRefresh: Sendable, Equatable {
    /// Nothing to do.
    case nothing
    /// A new asset file.
    case insert(FileFacts, refusal: LinkRefusal?)
    /// The known file changed; `isVisible` is false when apps would see no difference.
    case update(FileFacts, refusal: LinkRefusal?, isVisible: Bool)
    /// The file is proven gone, or is no longer an asset (a symlink or FIFO now).
    case delete
    /// The file cannot be looked up now: its row stays as it is.
    case keep(FileSystemFailure)

    /// Decides, from what the index knows of a path and what `statx` answered.
    ///
    /// - Parameter admission: whether this event may bring a new file in (a bare
    ///   `IN_CREATE` may not, unless the file arrived by `link(2)`).
    public static func decide(
        known: IndexedFile?, found: Lookup<FileObservation>, admission: IndexStep.Admission, daemonUID: UInt32
    ) -> FileRefresh {
        switch found {
        case .unreadable(let failure):
            return known == nil ? .nothing : .keep(failure)
        case .gone:
            return known == nil ? .nothing : .delete
        case .found(let file) where file.kind != .regular:
            return known == nil ? .nothing : .delete
        case .found(let file):
            let refusal = LinkRefusal.judge(file, daemonUID: daemonUID)
            guard let known else {
                return admission.admits(file) ? .insert(file.facts, refusal: refusal) : .nothing
            }
            let visible = known.file.differs(from: file.facts) || known.refusal != refusal
            if !visible && known.file == file.facts { return .nothing }
            return .update(file.facts, refusal: refusal, isVisible: visible)
        }
    }
}
