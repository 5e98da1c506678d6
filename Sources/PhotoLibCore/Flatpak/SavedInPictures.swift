/// What a full reconcile does with entries of a Flatpak app's Pictures folder that
/// the view does not want. The folder is the app's own to write in (Flatpak binds it
/// read-write, and the app runs as the owner), so it may hold what the app saved:
/// nothing of that is ever removed.
///
/// - An unwanted file that is one of photolibd's own entries goes: a copy linked once
///   whose modification time, to the nanosecond, is a library file's (every entry is
///   given its original's; a file the app writes has its own). An entry the app renamed
///   goes so, and its wanted name is placed again; so do entries the view no longer wants.
/// - Any other unwanted file is the app's: a limited app's is taken in as an inbox file
///   is (it joins the library and the app's selection); any other app keeps it there.
/// - Directories, symlinks and the like are the app's and stay.
/// - A wanted name that does not hold its photo (the app edited or replaced it in
///   place) is put back: an app keeps an edit by saving it under a new name.
public enum SavedInPictures {
    public struct Sorting<Key: Hashable & Sendable>: Sendable, Equatable {
        /// photolibd's own entries under names the view no longer wants.
        public var ours: [Key] = []
        /// Files the app saved.
        public var saved: [Key] = []
    }

    /// - Parameter isLibraryTime: whether a modification time (nanoseconds) is a library file's.
    public static func sort<Key: Hashable & Sendable>(
        unwanted: [Key], present: [Key: ViewDiff<Key>.Present], wanted: [Key: ViewDiff<Key>.Wanted],
        isLibraryTime: (Int64) throws -> Bool
    ) rethrows -> Sorting<Key> {
        let stamps = Set(wanted.values.compactMap { want -> ContentStamp? in
            if case .file(.clone(_, let stamp)) = want { return stamp }
            return nil
        })
        var sorting = Sorting<Key>()
        for key in unwanted where wanted[key] == nil {
            guard case .file(let file) = present[key] else { continue }
            if let stamp = file.stamp, file.linkCount == 1, try stamps.contains(stamp) || isLibraryTime(stamp.modificationTime) {
                sorting.ours.append(key)
            } else {
                sorting.saved.append(key)
            }
        }
        return sorting
    }
}
