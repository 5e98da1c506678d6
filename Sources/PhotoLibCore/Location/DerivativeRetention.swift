/// Whether a derivative without location in `.derivatives` is kept or removed.
///
/// With links, a view holding it is a link to it: it is kept while its link
/// count says some view holds it. A clone is a file of its own, so with clones
/// the count says nothing: a derivative is kept while it is the current one of a
/// member that is still there (its check names this very inode), ready for the
/// next clone, and removed once its original changes or goes. A Flatpak Pictures
/// folder holds copies, whatever the form: while one is kept (`copied`), a current
/// derivative is kept with links too, or each reconcile would derive it again.
public enum DerivativeRetention {
    public static func keeps(form: ViewEntryForm, linkCount: UInt64, inode: UInt64, check: LocationCheck?, copied: Bool = false) -> Bool {
        let isCurrent: Bool
        if case .derived(let current, _) = check?.outcome { isCurrent = current == inode } else { isCurrent = false }
        switch form {
        case .links, .references: return linkCount > 1 || (copied && isCurrent)
        case .clones: return isCurrent
        }
    }

    /// The member row a derivative's name (`m42`) stands for, or nil for a name that is not a derivative's.
    public static func memberRow(of name: FileName) -> Int64? {
        let text = name.description
        guard text.first == "m", let row = Int64(text.dropFirst()), row > 0, "m\(row)" == text else { return nil }
        return row
    }
}
