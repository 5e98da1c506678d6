/// How a view's entries hold the photos they share.
///
/// - `links`: each entry is a hard link to the original (or to the shared copy
///   without location). Works on any filesystem; an app sees the original's link
///   count and inode, so it can tell how many others hold the photo, and two apps
///   can match their photos by inode.
/// - `clones`: each entry is a reflink clone (`FICLONE`) of its original: an inode
///   of its own per app and photo, link count one, sharing every block with the
///   original. Nothing about other apps shows; it needs btrfs, XFS with reflink,
///   or another filesystem that clones.
/// - `references`: where links cannot cross from the library to the views (a library on a network
///   or FUSE filesystem, the views on the local disk), each entry is a symbolic link naming its
///   photo by its path in the library, in a directory only the owner enters; `photolibd-viewfs`
///   serves it to the app read-only, opening each photo beneath the library (never through a
///   symlink). Nothing of the library is copied to the local disk. A copy without location is
///   still a hard link to it (it is on the views' filesystem).
public enum ViewEntryForm: String, Sendable, Equatable, Codable {
    case links, clones, references
}

/// The `view_mode` setting: a form, or `auto` for clones where the views'
/// filesystem can make them and links elsewhere.
public enum ViewModeSetting: String, Sendable, Equatable, CaseIterable {
    case links, clones, auto

    /// The default: clones wherever they can be made, since they leave an app
    /// nothing to learn about other apps, at no cost in disk.
    public static let standard = ViewModeSetting.auto
}

/// Whether the views' filesystem can clone a file, as a probe there found.
public enum CloneSupport: Sendable, Equatable {
    case supported
    /// With what the kernel said (`FICLONE: Operation not supported`).
    case unsupported(reason: String)
}

/// The form in force and why, for the log, `status` and `doctor`.
public struct ViewModeDecision: Sendable, Equatable {
    public var form: ViewEntryForm
    public var setting: ViewModeSetting
    public var reason: String

    public init(form: ViewEntryForm, setting: ViewModeSetting, reason: String) {
        self.form = form
        self.setting = setting
        self.reason = reason
    }

    /// Decides the form from the setting and what the probe of the views'
    /// filesystem (`filesystem`, such as "xfs") found. Clones asked for by name
    /// where they cannot be made is an error, never quietly links: the person
    /// chose them so that apps learn nothing of each other.
    public static func decide(_ setting: ViewModeSetting, support: CloneSupport, filesystem: String,
                              views: String) throws(PhotoLibError) -> ViewModeDecision {
        try decide(setting, support: support, filesystem: filesystem, views: views, remoteLibraryApart: nil)
    }

    /// The same, where the library may be on a remote filesystem (`remoteLibraryApart`, its name)
    /// and the views on another mount: links cannot cross there, clones neither, so entries are
    /// references whatever the setting.
    public static func decide(_ setting: ViewModeSetting, support: CloneSupport, filesystem: String, views: String,
                              remoteLibraryApart: String?) throws(PhotoLibError) -> ViewModeDecision {
        if let remote = remoteLibraryApart {
            return ViewModeDecision(form: .references, setting: setting, reason: "the library is on \(remote) and the views on another mount (\(filesystem)), "
                                        + "where neither links nor clones can go: each entry names its photo in the library, and photolibd-viewfs serves it")
        }
        switch (setting, support) {
        case (.links, _):
            return ViewModeDecision(form: .links, setting: setting, reason: "view_mode is \"links\"")
        case (.clones, .supported):
            return ViewModeDecision(form: .clones, setting: setting, reason: "view_mode is \"clones\" and the views' filesystem (\(filesystem)) clones")
        case (.clones, .unsupported(let reason)):
            throw .clonesUnsupported(views: views, filesystem: filesystem, reason: reason)
        case (.auto, .supported):
            return ViewModeDecision(form: .clones, setting: setting, reason: "view_mode is \"auto\" and the views' filesystem (\(filesystem)) clones")
        case (.auto, .unsupported(let reason)):
            return ViewModeDecision(form: .links, setting: setting,
                                    reason: "view_mode is \"auto\" and the views' filesystem (\(filesystem)) cannot clone (\(reason))")
        }
    }
}
