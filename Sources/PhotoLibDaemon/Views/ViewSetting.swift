import Logging
import PhotoLibCore
import PhotoLibSystem

/// What the view maintainer is given at start and never changes: the views' root and the
/// library's, the owner's uid, where clones are staged, the entry form decided at start,
/// where Flatpak apps' Pictures folders are, and the log.
struct ViewSetting {
    let viewsRoot: FileDescriptor
    let access: LibraryAccess
    /// The daemon's uid: the library's owner.
    let ownerUID: UInt32
    let logger: Logger
    /// For messages only.
    let paths: (library: String, views: String)
    /// Where clones and copies are made before each is renamed into its view.
    let staging: CloneStaging
    /// The form decided at start from the setting and the views' filesystem.
    let form: ViewEntryForm
    /// Where Flatpak apps' Pictures folders are, in the owner's home.
    let pictures: FlatpakPicturesFolder
}
