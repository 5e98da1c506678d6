/// Judges a setup from its facts: one `DoctorCheck` per concern, in a fixed order.
public enum DoctorVerdicts {
    /// How many writable originals a failing check names before it says "and N more".
    static let namedExamples = 5

    public static func checks(_ facts: SetupFacts) -> [DoctorCheck] {
        [
            daemon(facts), library(facts), libraryPrivacy(facts), viewsMount(facts), viewEntries(facts), viewPermissions(facts), viewReach(facts),
            writableOriginals(facts), refusedOriginals(facts), withheldFiles(facts), inotifyWatches(facts), socket(facts), protectedHardlinks(facts),
            facts.fileDialogs.check, flatpakApps(facts), picturesFolders(facts),
        ]
    }

    /// How limited Flatpak apps' Pictures folders hold their photos: clones or a FUSE view cost no
    /// disk; full copies are named, with why and what would let photolibd do better.
    static func picturesFolders(_ facts: SetupFacts) -> DoctorCheck {
        guard let daemon = facts.daemon else {
            return DoctorCheck("pictures-folders", .warn, "Cannot tell how Flatpak apps' Pictures folders hold their photos: photolibd is not answering.")
        }
        let fuse = daemon.fuseViews ?? "unknown"
        if !daemon.copyingFolders.isEmpty {
            return DoctorCheck("pictures-folders", .warn, daemon.copyingFolders.map { "The Pictures folder of \($0.app) holds full copies of its photos: \($0.reason)." }.joined(separator: " "),
                               advice: fuse == "available"
                                   ? "Restart photolibd to try the FUSE view again (the log says why it failed), or keep the folder on btrfs or XFS, where it holds clones."
                                   : "Let photolibd use FUSE (\(fuse)): install fuse3, and run photolibd where fusermount3 may mount (not under NoNewPrivileges=); or keep the folder on btrfs or XFS, where it holds clones.")
        }
        return DoctorCheck("pictures-folders", .pass, fuse == "available"
                           ? "A limited Flatpak app's Pictures folder holds clones where its filesystem clones, and is served read-only through FUSE elsewhere: no copies."
                           : "No Pictures folder holds copies now; where one cannot clone, it would (FUSE cannot be used: \(fuse)).")
    }

    static func flatpakApps(_ facts: SetupFacts) -> DoctorCheck {
        let version = facts.flatpakVersion.map { " (\($0))" } ?? ""
        let undone = facts.flatpakApps.filter { $0.undone != nil }
        if !undone.isEmpty {
            return DoctorCheck("flatpak-apps", .fail, undone.map { "\($0.name) (\($0.id)): \($0.undone!)." }.joined(separator: " ")
                               + " Its Flatpak override was changed outside photolibd\(version).",
                               advice: "Choose its access again (on the page, or photolibctl authorize \(undone[0].id) limited): photolibd writes its lines back, and keeps yours.")
        }
        let stale = facts.flatpakApps.filter(\.runsWithOldPermissions)
        if !stale.isEmpty {
            return DoctorCheck("flatpak-apps", .warn, "\(stale.map(\.name).joined(separator: ", ")) still \(stale.count == 1 ? "runs" : "run") with the permissions \(stale.count == 1 ? "it" : "they") had before you last changed \(stale.count == 1 ? "its" : "their") access: Flatpak reads them when an app starts.",
                               advice: "Quit \(stale.map(\.name).joined(separator: " and ")) and start \(stale.count == 1 ? "it" : "them") again.")
        }
        if facts.flatpakApps.isEmpty {
            return DoctorCheck("flatpak-apps", .pass, facts.flatpakVersion == nil
                               ? "No Flatpak app is limited by photolibd (flatpak is not installed, or was not asked)."
                               : "No Flatpak app is limited by photolibd\(version); photolibctl apps lists the installed ones that see your photos.")
        }
        let one = facts.flatpakApps.count == 1
        return DoctorCheck("flatpak-apps", .pass, "\(count(facts.flatpakApps.count, "Flatpak app")) \(one ? "finds" : "find") only what you chose in \(one ? "its" : "their") Pictures folder\(version).")
    }

    static func daemon(_ facts: SetupFacts) -> DoctorCheck {
        guard let daemon = facts.daemon else {
            // The client's error already says what to do (start it, or which socket to use).
            return DoctorCheck("daemon", .fail, facts.daemonUnreachable ?? "photolibd is not answering on \(facts.socket).")
        }
        switch daemon.state {
        case "ready":
            return DoctorCheck("daemon", .pass, "photolibd is running and every view is up to date.")
        case "unavailable":
            return DoctorCheck("daemon", .fail, "photolibd is running, but the library \(facts.library) is unavailable: \(daemon.unavailable?.reason ?? "its server does not answer"). Its photos, IDs and selections are kept as they were, and nothing is taken for gone; apps may fail to read photos until the server is back.",
                               advice: "Check that the server (the NAS, or the FUSE program's connection) is up and reachable; photolibd looks again every verify_interval seconds and brings everything up to date by itself when it answers.")
        case "degraded" where !daemon.unreadable.isEmpty:
            return DoctorCheck("daemon", .fail, "photolibd is running, but cannot read \(count(daemon.unreadable.count, "part")) of the library: \(sample(daemon.unreadable.map { $0.isEmpty ? "(the library itself)" : $0 })). Their photos, IDs and selections are kept as they were, but changes there go unseen.",
                               advice: "Give the library's owner read and search permission there again (chmod u+rx, or check the disk for I/O errors); photolibd looks again by itself when the mode changes, or run photolibctl rescan.")
        case "degraded":
            return DoctorCheck("daemon", .fail, "photolibd is running, but \(daemon.failedWatches) directories have no inotify watch: changes there are found only by verification rounds (every verify_interval seconds, up to four times that while nothing changes), not as they happen.",
                               advice: "Raise fs.inotify.max_user_watches (see inotify-watches below), then photolibctl rescan.")
        case "libraryMissing":
            return DoctorCheck("daemon", .fail, "photolibd is running but the library \(facts.library) is gone; every view is empty.",
                               advice: "Move the library back (photolibd picks it up again) or point --library at where it is now.")
        default:
            return DoctorCheck("daemon", .warn, "photolibd is still scanning (\(daemon.scannedFiles) files so far).",
                               advice: "Wait for the scan to finish; photolibctl status shows its progress.")
        }
    }

    static func library(_ facts: SetupFacts) -> DoctorCheck {
        guard let node = facts.libraryNode else {
            if let away = facts.daemon?.unavailable {
                // Not a second problem: the daemon's check says what is wrong and what to do.
                return DoctorCheck("library", .warn, "The library \(facts.library) cannot be reached now: \(away.reason) (see the daemon's check).")
            }
            return DoctorCheck("library", .fail, "The library \(facts.library) does not exist or cannot be reached.",
                               advice: "Create it, or set library in the config file (or --library) to your photo directory.")
        }
        guard node.isDirectory else {
            return DoctorCheck("library", .fail, "The library \(facts.library) is not a directory.",
                               advice: "Point library (or --library) at the directory that holds your photos.")
        }
        var detail = "The library \(facts.library) holds \(facts.libraryDirectories) directories."
        if !facts.unreadableDirectories.isEmpty {
            detail += " \(facts.unreadableDirectories.count) cannot be read: \(sample(facts.unreadableDirectories))."
            return DoctorCheck("library", .warn, detail,
                               advice: "photolibd cannot index what it cannot read: chmod u+rx those directories.")
        }
        return DoctorCheck("library", .pass, detail)
    }

    /// SPEC §4: the library itself is reachable by nobody but its owner.
    public static func libraryPrivacy(_ facts: SetupFacts) -> DoctorCheck {
        guard let node = facts.libraryNode else {
            return DoctorCheck("library-privacy", .warn, facts.daemon?.unavailable != nil
                               ? "Cannot tell who else can open the library now: its server does not answer."
                               : "Cannot tell who else can open the library: it is missing or cannot be reached.")
        }
        // Each app uid is judged as the kernel would, with its groups and any
        // ACL: an entry made so it can reach its view may let it into the library too.
        let appUIDs = Set(facts.daemon?.appUIDs ?? []).subtracting([facts.ownerUID, 0]).sorted()
        let inside = appUIDs.filter { uid in
            let groups = facts.appGroups[uid] ?? []
            return facts.libraryAncestors.allSatisfy { $0.node.access.allows(1, uid: uid, groups: groups) }
                && (node.access.allows(4, uid: uid, groups: groups) || node.access.allows(1, uid: uid, groups: groups))
        }
        if !inside.isEmpty {
            return DoctorCheck("library-privacy", .fail, "Apps with their own uid (\(inside.map(String.init).joined(separator: ", "))) can open \(facts.library) directly, going around photolibd.",
                               advice: "chmod 700 \(quoted(facts.library)), and remove any ACL entry that lets them in (setfacl -b).")
        }
        let ancestorsOpen = facts.libraryAncestors.allSatisfy { $0.node.traversableByOthers }
        if node.openToOthers && ancestorsOpen {
            return DoctorCheck("library-privacy", .warn, "Other users can open \(facts.library) directly, going around photolibd.",
                               advice: "chmod o-rwx \(quoted(facts.library)) (apps then see only their views).")
        }
        return DoctorCheck("library-privacy", .pass, "Other users cannot open the library directly.")
    }

    static func viewsMount(_ facts: SetupFacts) -> DoctorCheck {
        guard let library = facts.libraryMountID, let views = facts.viewsMountID else {
            return DoctorCheck("views-mount", .warn, "Cannot compare the mounts of the library and \(facts.views).")
        }
        if library == views {
            return DoctorCheck("views-mount", .pass, "The views directory \(facts.views) is on the library's mount, so hardlinks work.")
        }
        if facts.daemon?.viewMode == "references" {
            return DoctorCheck("views-mount", .pass, "The views directory \(facts.views) is on another mount than the library, which is on a network filesystem: views hold references to its photos, served through FUSE, and nothing is copied.")
        }
        return DoctorCheck("views-mount", .fail, "The views directory \(facts.views) is on another mount than the library: hardlinks fail there (EXDEV) and photolibd will not start.",
                           advice: "Set views_dir (or --views-dir) to a directory on the library's filesystem and mount, not a tmpfs, bind mount or StateDirectory=; under systemd bind the whole home with BindPaths=.")
    }

    /// Hard links or clones, and what that leaves an app to learn of other apps.
    static func viewEntries(_ facts: SetupFacts) -> DoctorCheck {
        guard let daemon = facts.daemon, let mode = daemon.viewMode else {
            return DoctorCheck("view-entries", .warn, "Cannot tell whether views hold hard links or clones: photolibd is not answering.")
        }
        let why = daemon.viewModeReason ?? "view_mode"
        if mode == "references" {
            let copying = daemon.copyingViews
            guard copying.isEmpty else {
                return DoctorCheck("view-entries", .warn, "Views hold references to the photos on the library's network filesystem (\(why)), served through FUSE; but "
                                   + copying.map { "the view of \($0.app) holds copies: \($0.reason)." }.joined(separator: " "),
                                   advice: "For an app under a uid of its own, root can add the line user_allow_other to /etc/fuse.conf, then restart photolibd; or keep the views on the library's own mount (views_dir inside it), where they are hard links.")
            }
            return DoctorCheck("view-entries", .pass, "Views hold references to the photos on the library's network filesystem (\(why)), served to each app through FUSE: nothing is copied to this disk.")
        }
        if mode == "clones" {
            return DoctorCheck("view-entries", .pass, "Views hold reflink clones (\(why)): each app's entry is a file of its own, so it cannot tell which other apps hold a photo.")
        }
        // Not a warning: links are what most filesystems allow, and docs/SECURITY.md says what they show.
        return DoctorCheck("view-entries", .pass, "Views hold hard links (\(why)). An app can see how many others hold a photo (its link count), and apps that collude can match photos by inode; on btrfs or XFS with reflink, view_mode \"auto\" makes clones, which show neither.")
    }

    static func viewPermissions(_ facts: SetupFacts) -> DoctorCheck {
        guard let root = facts.viewsRoot else {
            return DoctorCheck("view-permissions", .pass, "The views directory \(facts.views) does not exist yet; photolibd creates it with mode 0711.")
        }
        if root.owner != facts.ownerUID {
            return DoctorCheck("view-permissions", .fail, "The views directory \(facts.views) belongs to uid \(root.owner), not to the library's owner (uid \(facts.ownerUID)).",
                               advice: "chown \(facts.ownerUID) \(quoted(facts.views)), or choose a views directory of your own.")
        }
        if root.permissions & 0o066 != 0 {
            return DoctorCheck("view-permissions", .fail, "Others can list or write the views directory \(facts.views) (mode \(octal(root.permissions))), so apps could see each other's views.",
                               advice: "chmod 0711 \(quoted(facts.views)) (photolibd sets it so at start).")
        }
        let open = facts.viewDirectories.filter { $0.node.permissions & 0o007 != 0 || $0.node.permissions & 0o020 != 0 || $0.node.owner != facts.ownerUID }
        if !open.isEmpty {
            return DoctorCheck("view-permissions", .fail, "\(count(open.count, "view directory", "view directories")) open to other users: \(sample(open.map { "\($0.name) (\(octal($0.node.permissions)))" })).",
                               advice: "Restart photolibd: it resets each view to its app alone. Until then: chmod 0700 on those directories.")
        }
        return DoctorCheck("view-permissions", .pass, "The views directory and \(count(facts.viewDirectories.count, "view directory", "view directories")) are closed to other users.")
    }

    /// SPEC §4: an app with its own uid must reach its view: enter every directory
    /// from `/` down, then read and enter the view, judged with its groups and ACLs.
    static func viewReach(_ facts: SetupFacts) -> DoctorCheck {
        guard facts.daemon != nil else {
            return DoctorCheck("view-reach", .warn, "Cannot tell whether apps reach their views: photolibd is not answering.")
        }
        var problems: [String] = []
        var fixes: [String] = []
        for path in facts.viewPaths {
            let uid = path.app.uid
            let groups = facts.appGroups[uid] ?? []
            if let closed = path.ancestors.first(where: { !$0.node.access.allows(1, uid: uid, groups: groups) }) {
                problems.append("\(path.app.id) (uid \(uid)) cannot enter \(closed.path)")
                fixes.append("setfacl -m u:\(uid):x \(quoted(closed.path))")
            } else if let view = path.view, !view.access.allows(5, uid: uid, groups: groups) {
                problems.append("\(path.app.id) (uid \(uid)) cannot read its view \(path.app.view)")
                fixes.append("restart photolibd (it sets each view's ACL)")
            } else if path.view == nil {
                problems.append("the view of \(path.app.id) is missing")
                fixes.append("restart photolibd (it remakes every view)")
            }
        }
        if !problems.isEmpty {
            return DoctorCheck("view-reach", .fail, "\(count(problems.count, "app")) with a uid of its own cannot reach its view: \(sample(problems)).",
                               advice: "Let each app's uid pass (enter, not list) where it is stopped: \(sample(Array(Set(fixes)).sorted())). photolibd opens the directories it made itself.")
        }
        if facts.viewPaths.isEmpty {
            return DoctorCheck("view-reach", .pass, "No app runs under a uid of its own, so no view needs to be reached from outside.")
        }
        return DoctorCheck("view-reach", .pass, "\(count(facts.viewPaths.count, "app")) with a uid of its own can each enter every directory down to its view and read it.")
    }

    /// SPEC §4: an inode an app could write is never linked. The group bits are
    /// the ACL mask when an ACL exists, so `g+w` also covers an ACL write entry.
    static func writableOriginals(_ facts: SetupFacts) -> DoctorCheck {
        let files = facts.writableOriginals
        if files.isEmpty {
            return DoctorCheck("writable-originals", .pass, "No photo or video in the library can be written by group, others or an ACL entry.")
        }
        return DoctorCheck("writable-originals", .fail, "\(count(files.count, "original")) can be written by group, others or an ACL entry, so no app is given \(files.count == 1 ? "it" : "them"): \(sample(files)).",
                           advice: "Remove that write access, for example: chmod go-w FILE, or setfacl -m m::r-x FILE; photolibd links them at once.")
    }

    /// Originals the daemon indexed but will not link (SPEC §3: refused alone).
    static func refusedOriginals(_ facts: SetupFacts) -> DoctorCheck {
        guard let daemon = facts.daemon else {
            return DoctorCheck("refused-originals", .warn, "Cannot ask photolibd which originals it refuses: it is not answering.")
        }
        guard let first = daemon.refused.first else {
            return DoctorCheck("refused-originals", .pass, "photolibd can link every original in the library.")
        }
        let named = daemon.refused.prefix(namedExamples).map { "\(quoted($0.path)): \($0.reason)" }.joined(separator: "; ")
        let more = daemon.refused.count > namedExamples ? "; and \(daemon.refused.count - namedExamples) more" : ""
        return DoctorCheck("refused-originals", .fail, "\(count(daemon.refused.count, "original")) \(daemon.refused.count == 1 ? "is" : "are") in no view, whoever selects \(daemon.refused.count == 1 ? "it" : "them"): \(named)\(more).",
                           advice: first.reason.isEmpty ? nil : "Fix each as its reason says; photolibctl assets --refused lists them all. Everything else is shared as usual.")
    }

    /// Files apps without location cannot be given: whether they hold a location cannot be told.
    static func withheldFiles(_ facts: SetupFacts) -> DoctorCheck {
        guard let daemon = facts.daemon else {
            return DoctorCheck("location-withheld", .warn, "Cannot ask photolibd which files it withholds from apps without location: it is not answering.")
        }
        guard !daemon.withheld.isEmpty else {
            return DoctorCheck("location-withheld", .pass, "photolibd can tell for every file it was asked about whether it holds a location.")
        }
        let named = daemon.withheld.prefix(namedExamples).map { "\(quoted($0.path)): \($0.reason)" }.joined(separator: "; ")
        let more = daemon.withheld.count > namedExamples ? "; and \(daemon.withheld.count - namedExamples) more" : ""
        return DoctorCheck("location-withheld", .warn, "\(count(daemon.withheld.count, "file")) \(daemon.withheld.count == 1 ? "is" : "are") left out of the views of apps with location none, because whether \(daemon.withheld.count == 1 ? "it holds" : "they hold") a location cannot be told: \(named)\(more).",
                           advice: "Repair or re-export each file (photolibctl assets --withheld lists them), or give an app that must see them --location precise.")
    }

    static func inotifyWatches(_ facts: SetupFacts) -> DoctorCheck {
        let needed = facts.libraryDirectories
        let raise = "sysctl -w fs.inotify.max_user_watches=\(suggestedWatchLimit(needed)), and keep it in /etc/sysctl.d/90-photolibd.conf"
        if let failed = facts.daemon?.failedWatches, failed > 0 {
            return DoctorCheck("inotify-watches", .fail, "photolibd could not watch \(failed) directories (fs.inotify.max_user_watches is \(facts.maxUserWatches.map(String.init) ?? "unknown")); changes there are found only by verification rounds, up to minutes late.",
                               advice: "Raise the limit: \(raise); then photolibctl rescan.")
        }
        guard let limit = facts.maxUserWatches else {
            return DoctorCheck("inotify-watches", .warn, "Cannot read fs.inotify.max_user_watches.")
        }
        if needed > limit {
            return DoctorCheck("inotify-watches", .fail, "The library has \(needed) directories but fs.inotify.max_user_watches is \(limit).",
                               advice: "Raise the limit: \(raise).")
        }
        if needed * 10 > limit * 8 {
            return DoctorCheck("inotify-watches", .warn, "The library's \(needed) directories use most of fs.inotify.max_user_watches (\(limit)), which your other programs share.",
                               advice: "Raise the limit: \(raise).")
        }
        return DoctorCheck("inotify-watches", .pass, "The library's \(needed) directories fit in fs.inotify.max_user_watches (\(limit)).")
    }

    static func suggestedWatchLimit(_ directories: Int) -> Int {
        max(65_536, directories * 2)
    }

    static func socket(_ facts: SetupFacts) -> DoctorCheck {
        guard let node = facts.socketNode else {
            if facts.daemon == nil {
                return DoctorCheck("socket", .warn, "No socket at \(facts.socket): photolibd is not running.")
            }
            return DoctorCheck("socket", .fail, "photolibd answers, but \(facts.socket) is missing.", advice: "Restart photolibd.")
        }
        guard node.isSocket else {
            return DoctorCheck("socket", .fail, "\(facts.socket) is not a socket.", advice: "Remove it, or point socket (or --socket) elsewhere.")
        }
        if node.owner != facts.ownerUID && node.owner != 0 {
            return DoctorCheck("socket", .fail, "The socket \(facts.socket) belongs to uid \(node.owner), not to the library's owner (uid \(facts.ownerUID)).",
                               advice: "Stop whatever made it, remove it and restart photolibd.")
        }
        let otherUIDs = Set(facts.daemon?.appUIDs ?? []).subtracting([facts.ownerUID]).sorted()
        // Connecting needs "enter" on every directory above the socket and
        // "write" on the socket, judged with each uid's groups and any ACL.
        var blocked: [UInt32] = []
        var reasons: [String] = []
        for uid in otherUIDs {
            let groups = facts.appGroups[uid] ?? []
            if let closed = facts.socketAncestors.first(where: { !$0.node.access.allows(1, uid: uid, groups: groups) }) {
                reasons.append("uid \(uid) cannot enter \(closed.path)")
            } else if !node.access.allows(2, uid: uid, groups: groups) {
                reasons.append("uid \(uid) may not write the socket (mode \(octal(node.permissions)))")
            } else {
                continue
            }
            blocked.append(uid)
        }
        if !blocked.isEmpty {
            return DoctorCheck("socket", .fail, "Apps with their own uid (\(blocked.map(String.init).joined(separator: ", "))) cannot reach \(facts.socket): \(sample(reasons)).",
                               advice: "Run photolibd@USER.service with photolibd@USER.socket (the socket is then /run/photolibd/USER/photolibd.sock), or set socket to a path in a directory others can enter.")
        }
        return DoctorCheck("socket", .pass, "The socket \(facts.socket) is reachable by the owner\(otherUIDs.isEmpty ? "" : " and every app uid"); the daemon checks each peer's uid.")
    }

    static func protectedHardlinks(_ facts: SetupFacts) -> DoctorCheck {
        switch facts.protectedHardlinks {
        case 1:
            return DoctorCheck("protected-hardlinks", .pass, "fs.protected_hardlinks is 1: apps cannot hardlink shared photos to keep them.")
        case nil:
            return DoctorCheck("protected-hardlinks", .warn, "Cannot read fs.protected_hardlinks.")
        case let value?:
            return DoctorCheck("protected-hardlinks", .fail, "fs.protected_hardlinks is \(value): an app could hardlink a shared photo into its own directory and keep it after you revoke access.",
                               advice: "sysctl -w fs.protected_hardlinks=1, and keep it in /etc/sysctl.d/90-photolibd.conf.")
        }
    }

    static func sample(_ items: [String]) -> String {
        let named = items.prefix(namedExamples).joined(separator: ", ")
        return items.count > namedExamples ? "\(named) and \(items.count - namedExamples) more" : named
    }

    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }

    static func octal(_ permissions: UInt32) -> String {
        "0" + String(permissions & 0o7777, radix: 8)
    }

    /// Quotes a path for a shell command the person may paste.
    static func quoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+~".contains($0) } ? path : "'" + path.replacing("'", with: "'\\''") + "'"
    }
}
