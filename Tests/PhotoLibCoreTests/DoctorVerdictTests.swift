import PhotoLibCore
import Testing

@Suite("Doctor's verdicts")
struct DoctorVerdictTests {
    /// A healthy setup: every check passes.
    func healthy() -> SetupFacts {
        var facts = SetupFacts(library: "/home/a/Pictures", views: "/home/a/.local/share/photolibd/views",
                               socket: "/run/user/1000/photolibd.sock", ownerUID: 1000)
        facts.daemon = .init(state: "ready", scannedFiles: 10, failedWatches: 0,
                             apps: [.init(id: "org.example.Mine", uid: 1000, view: "/home/a/.local/share/photolibd/views/mine")],
                             viewMode: "links", viewModeReason: "view_mode is \"auto\" and the views' filesystem (ext4) cannot clone")
        facts.libraryNode = .init(owner: 1000, permissions: 0o700)
        facts.libraryAncestors = [("/", .init(owner: 0, permissions: 0o755)), ("/home", .init(owner: 0, permissions: 0o755)),
                                  ("/home/a", .init(owner: 1000, permissions: 0o755))]
        facts.libraryMountID = 7
        facts.viewsMountID = 7
        facts.viewsRoot = .init(owner: 1000, permissions: 0o711)
        facts.viewDirectories = [("viewer", .init(owner: 1000, permissions: 0o700))]
        facts.libraryDirectories = 100
        facts.socketNode = .init(owner: 1000, permissions: 0o666, isDirectory: false, isSocket: true)
        facts.socketAncestors = [("/", .init(owner: 0, permissions: 0o755)), ("/run", .init(owner: 0, permissions: 0o755)),
                                 ("/run/user", .init(owner: 0, permissions: 0o755)), ("/run/user/1000", .init(owner: 1000, permissions: 0o700))]
        facts.daemon?.fuseViews = "available"
        facts.maxUserWatches = 65_536
        facts.protectedHardlinks = 1
        return facts
    }

    func check(_ name: String, _ facts: SetupFacts) -> DoctorCheck {
        DoctorVerdicts.checks(facts).first { $0.name == name }!
    }

    @Test("flatpak-apps: an app whose override was undone fails naming it and what it would see; one running with old permissions warns; the rest pass with the version")
    func flatpakApps() {
        var facts = healthy()
        facts.flatpakVersion = "Flatpak 1.14.10"
        facts.flatpakApps = [.init(id: "org.gnome.Shotwell", name: "Shotwell", undone: nil, runsWithOldPermissions: false)]
        #expect(check("flatpak-apps", facts).detail == "1 Flatpak app finds only what you chose in its Pictures folder (Flatpak 1.14.10).")
        facts.flatpakApps.append(.init(id: "org.gimp.GIMP", name: "GIMP", undone: nil, runsWithOldPermissions: true))
        let stale = check("flatpak-apps", facts)
        #expect(stale.outcome == .warn && stale.detail.hasPrefix("GIMP still runs with the permissions it had before") && stale.advice == "Quit GIMP and start it again.")
        facts.flatpakApps[0].undone = "its permissions reach your Pictures folder again (xdg-pictures), so it sees every photo"
        let undone = check("flatpak-apps", facts)
        #expect(undone.outcome == .fail && undone.detail.hasPrefix("Shotwell (org.gnome.Shotwell): its permissions reach your Pictures folder again"))
        #expect(undone.advice?.contains("photolibctl authorize org.gnome.Shotwell limited") == true)
    }

    @Test("pictures-folders names each Flatpak app whose Pictures folder holds copies, with why, and what would let FUSE serve it")
    func picturesFolders() {
        var facts = healthy()
        #expect(check("pictures-folders", facts).detail.contains("served read-only through FUSE"))
        facts.daemon?.fuseViews = "this process runs with no_new_privs"
        facts.daemon?.copyingFolders = [("org.gimp.GIMP", "its filesystem cannot clone (FICLONE: Operation not supported) and FUSE cannot be used (this process runs with no_new_privs)")]
        let copies = check("pictures-folders", facts)
        #expect(copies.outcome == .warn && copies.detail.hasPrefix("The Pictures folder of org.gimp.GIMP holds full copies of its photos: its filesystem cannot clone"))
        #expect(copies.advice?.contains("not under NoNewPrivileges=") == true)
        facts.daemon?.fuseViews = "available"
        facts.daemon?.copyingFolders = [("org.gimp.GIMP", "mounting its FUSE view failed (photolibd-viewfs: EPIPE)")]
        #expect(check("pictures-folders", facts).advice?.hasPrefix("Restart photolibd to try the FUSE view again") == true)
        facts.daemon = nil
        #expect(check("pictures-folders", facts).outcome == .warn)
    }

    @Test("a healthy setup passes every check, each with no advice")
    func healthyPasses() {
        let checks = DoctorVerdicts.checks(healthy())
        #expect(checks.map(\.name) == ["daemon", "library", "library-privacy", "views-mount", "view-entries", "view-permissions", "view-reach",
                                       "writable-originals", "refused-originals", "location-withheld", "inotify-watches", "socket", "protected-hardlinks", "file-dialogs",
                                       "flatpak-apps", "pictures-folders"])
        for check in checks {
            #expect(check.outcome == .pass, "\(check)")
            #expect(check.advice == nil)
        }
    }

    @Test("view-entries says whether views are clones or links and why, and what links leave an app to learn")
    func viewEntries() {
        var facts = healthy()
        facts.daemon?.viewMode = "clones"
        facts.daemon?.viewModeReason = "view_mode is \"auto\" and the views' filesystem (xfs) clones"
        let clones = check("view-entries", facts)
        #expect(clones.outcome == .pass && clones.detail.contains("reflink clones") && clones.detail.contains("(xfs)"))
        facts.daemon?.viewMode = "links"
        facts.daemon?.viewModeReason = "view_mode is \"auto\" and the views' filesystem (ext4) cannot clone"
        let links = check("view-entries", facts)
        #expect(links.outcome == .pass && links.detail.contains("(ext4) cannot clone") && links.detail.contains("match photos by inode"))
        facts.daemon = nil
        #expect(check("view-entries", facts).outcome == .warn)
    }

    @Test("views on another mount fail and say where to put them")
    func otherMount() {
        var facts = healthy()
        facts.viewsMountID = 8
        let result = check("views-mount", facts)
        #expect(result.outcome == .fail)
        #expect(result.detail.contains("EXDEV"))
        #expect(result.advice?.contains("BindPaths=") == true)
    }

    @Test("writable originals fail, named up to five and counted")
    func writableOriginals() {
        var facts = healthy()
        facts.writableOriginals = (1...7).map { "a/\($0).jpg" }
        let result = check("writable-originals", facts)
        #expect(result.outcome == .fail)
        #expect(result.detail.hasPrefix("7 originals"))
        #expect(result.detail.contains("a/1.jpg, a/2.jpg, a/3.jpg, a/4.jpg, a/5.jpg and 2 more"))
        #expect(result.advice?.contains("chmod go-w") == true)
    }

    @Test("the watch budget: more directories than watches fails naming the sysctl; 80% warns; failed watches fail")
    func watchBudget() {
        var facts = healthy()
        facts.maxUserWatches = 99
        var result = check("inotify-watches", facts)
        #expect(result.outcome == .fail)
        #expect(result.advice?.contains("sysctl -w fs.inotify.max_user_watches=65536") == true)
        facts.maxUserWatches = 120
        #expect(check("inotify-watches", facts).outcome == .warn)
        facts.maxUserWatches = 65_536
        facts.daemon?.failedWatches = 3
        result = check("inotify-watches", facts)
        #expect(result.outcome == .fail)
        #expect(result.advice?.contains("photolibctl rescan") == true)
        facts.daemon?.failedWatches = 0
        facts.libraryDirectories = 1_000_000
        facts.maxUserWatches = 10
        #expect(check("inotify-watches", facts).advice?.contains("=2000000") == true)
    }

    @Test("an app uid that cannot enter the socket's directory is named")
    func socketUnreachable() {
        var facts = healthy()
        facts.daemon?.apps.append(.init(id: "org.example.Viewer", uid: 4242, view: "/home/a/.local/share/photolibd/views/viewer"))
        let result = check("socket", facts)
        #expect(result.outcome == .fail)
        #expect(result.detail.contains("4242"))
        #expect(result.detail.contains("/run/user/1000"))
        #expect(result.advice?.contains("photolibd@USER") == true)
        facts.socketAncestors[3].node.permissions = 0o711
        #expect(check("socket", facts).outcome == .pass)
    }

    @Test("an app uid that gets in through its group or an ACL entry passes; a socket it may not write fails")
    func socketReachableByGroupOrACL() {
        var facts = healthy()
        facts.daemon?.apps.append(.init(id: "org.example.Viewer", uid: 4242, view: "/home/a/.local/share/photolibd/views/viewer"))
        facts.socketAncestors[3].node.group = 2000
        facts.socketAncestors[3].node.permissions = 0o710
        #expect(check("socket", facts).outcome == .fail)
        facts.appGroups[4242] = [2000]
        #expect(check("socket", facts).outcome == .pass)
        facts.appGroups[4242] = []
        facts.socketAncestors[3].node.accessList = ViewAccessList(reader: 4242).encoded
        #expect(check("socket", facts).outcome == .pass)
        facts.socketNode?.permissions = 0o660
        let result = check("socket", facts)
        #expect(result.outcome == .fail)
        #expect(result.detail.contains("uid 4242 may not write the socket (mode 0660)"))
    }

    /// `healthy()` plus an app with uid 4242, whose way to its view goes through a 0700 home.
    func withOwnUIDApp(home: UInt32 = 0o700) -> SetupFacts {
        var facts = healthy()
        let app = SetupFacts.App(id: "org.example.Viewer", uid: 4242, view: "/home/a/.local/share/photolibd/views/viewer")
        facts.daemon?.apps.append(app)
        let passage = ViewAccessList.passage(appUIDs: [1000, 4242], owner: 1000)!.encoded
        facts.viewPaths = [.init(app: app, ancestors: [
            ("/", .init(owner: 0, permissions: 0o755)), ("/home", .init(owner: 0, permissions: 0o755)),
            ("/home/a", .init(owner: 1000, permissions: home)),
            ("/home/a/.local", .init(owner: 1000, permissions: 0o710, accessList: passage)),
            ("/home/a/.local/share", .init(owner: 1000, permissions: 0o710, accessList: passage)),
            ("/home/a/.local/share/photolibd", .init(owner: 1000, permissions: 0o710, accessList: passage)),
            ("/home/a/.local/share/photolibd/views", .init(owner: 1000, permissions: 0o711)),
        ], view: .init(owner: 1000, permissions: 0o750, accessList: ViewAccessList(reader: 4242).encoded))]
        return facts
    }

    @Test("view-reach names the first directory an app's uid cannot enter and the setfacl that opens it")
    func viewReachBlockedByHome() {
        let result = check("view-reach", withOwnUIDApp(home: 0o700))
        #expect(result.outcome == .fail)
        #expect(result.detail.contains("org.example.Viewer (uid 4242) cannot enter /home/a"), "\(result.detail)")
        #expect(result.advice?.contains("setfacl -m u:4242:x /home/a") == true, "\(result.advice ?? "")")
    }

    @Test("view-reach passes through photolibd's passage ACLs, a group or o+x, and fails on a view the app cannot read")
    func viewReachPasses() {
        var facts = withOwnUIDApp(home: 0o711)
        #expect(check("view-reach", facts).outcome == .pass)
        facts = withOwnUIDApp(home: 0o750)
        facts.viewPaths[0].ancestors[2].node.group = 3000
        facts.appGroups[4242] = [3000]
        #expect(check("view-reach", facts).outcome == .pass)
        facts = withOwnUIDApp(home: 0o711)
        facts.viewPaths[0].ancestors[5].node.accessList = nil
        #expect(check("view-reach", facts).detail.contains("cannot enter /home/a/.local/share/photolibd"))
        facts = withOwnUIDApp(home: 0o711)
        facts.viewPaths[0].view = .init(owner: 1000, permissions: 0o700)
        #expect(check("view-reach", facts).detail.contains("cannot read its view"))
        facts = withOwnUIDApp(home: 0o711)
        facts.viewPaths[0].view = nil
        #expect(check("view-reach", facts).detail.contains("is missing"))
    }

    @Test("library-privacy fails when an app uid let through the home for its view can also open the library")
    func libraryOpenToAppThroughACL() {
        var facts = withOwnUIDApp(home: 0o700)
        facts.libraryAncestors[2].node.accessList = ViewAccessList(passage: [4242]).encoded
        facts.libraryNode = .init(owner: 1000, permissions: 0o755)
        let result = check("library-privacy", facts)
        #expect(result.outcome == .fail)
        #expect(result.detail.contains("(4242)"), "\(result.detail)")
        #expect(result.advice?.hasPrefix("chmod 700 /home/a/Pictures") == true)
        facts.libraryNode = .init(owner: 1000, permissions: 0o700)
        #expect(check("library-privacy", facts).outcome == .pass)
    }

    @Test("view-reach has nothing to judge when every app runs as the owner, and warns when the daemon is away")
    func viewReachWithoutOwnUIDApps() {
        #expect(check("view-reach", healthy()).outcome == .pass)
        var facts = healthy()
        facts.daemon = nil
        #expect(check("view-reach", facts).outcome == .warn)
    }

    @Test("view directories open to others, or a listable views root, fail")
    func viewPermissions() {
        var facts = healthy()
        facts.viewDirectories.append(("leaky", .init(owner: 1000, permissions: 0o755)))
        #expect(check("view-permissions", facts).outcome == .fail)
        #expect(check("view-permissions", facts).detail.contains("leaky (0755)"))
        facts = healthy()
        facts.viewsRoot?.permissions = 0o755
        #expect(check("view-permissions", facts).advice?.contains("chmod 0711") == true)
        facts = healthy()
        facts.viewsRoot = nil
        #expect(check("view-permissions", facts).outcome == .pass)
    }

    @Test("a library others can enter warns; a closed parent is enough")
    func libraryPrivacy() {
        var facts = healthy()
        facts.libraryNode?.permissions = 0o755
        #expect(check("library-privacy", facts).outcome == .warn)
        #expect(check("library-privacy", facts).advice == "chmod o-rwx /home/a/Pictures (apps then see only their views).")
        facts.libraryAncestors[2].node.permissions = 0o750
        #expect(check("library-privacy", facts).outcome == .pass)
    }

    @Test("fs.protected_hardlinks=0 fails; the daemon not answering fails with the client's own advice")
    func kernelAndDaemon() {
        var facts = healthy()
        facts.protectedHardlinks = 0
        #expect(check("protected-hardlinks", facts).outcome == .fail)
        facts.daemon = nil
        facts.daemonUnreachable = "photolibd is not running; start it."
        #expect(check("daemon", facts) == DoctorCheck("daemon", .fail, "photolibd is not running; start it."))
        facts.socketNode = nil
        #expect(check("socket", facts).outcome == .warn)
    }

    @Test("paths are quoted for the shell only when they need it")
    func quoting() {
        var facts = healthy()
        facts.library = "/home/a/My Photos"
        facts.libraryNode?.permissions = 0o755
        #expect(check("library-privacy", facts).advice?.hasPrefix("chmod o-rwx '/home/a/My Photos'") == true)
    }
}

@Suite("The view ACL's encoding")
struct ViewAccessListTests {
    @Test("version 2, then owner rwx, the app r-x, group none, mask r-x, others none, little-endian, sorted by tag")
    func encoding() {
        let bytes = ViewAccessList(reader: 0x0102_0304).encoded
        #expect(bytes.count == 4 + 5 * 8)
        #expect(Array(bytes[0..<4]) == [2, 0, 0, 0])
        let undefined: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(Array(bytes[4..<12]) == [0x01, 0, 7, 0] + undefined)
        #expect(Array(bytes[12..<20]) == [0x02, 0, 5, 0, 0x04, 0x03, 0x02, 0x01])
        #expect(Array(bytes[20..<28]) == [0x04, 0, 0, 0] + undefined)
        #expect(Array(bytes[28..<36]) == [0x10, 0, 5, 0] + undefined)
        #expect(Array(bytes[36..<44]) == [0x20, 0, 0, 0] + undefined)
    }

    @Test("a passage names each app uid once, ascending, with --x and mask --x")
    func passageEncoding() throws {
        let list = try #require(ViewAccessList.passage(appUIDs: [5000, 1000, 4242, 4242, 0], owner: 1000))
        #expect(list.users == [4242, 5000])
        let bytes = list.encoded
        #expect(bytes.count == 4 + 6 * 8)
        #expect(Array(bytes[12..<20]) == [0x02, 0, 1, 0] + withUnsafeBytes(of: UInt32(4242).littleEndian, Array.init))
        #expect(Array(bytes[20..<28]) == [0x02, 0, 1, 0] + withUnsafeBytes(of: UInt32(5000).littleEndian, Array.init))
        #expect(Array(bytes[36..<40]) == [0x10, 0, 1, 0])
        let rule = try #require(AccessRule(owner: 1000, group: 1000, permissions: 0o710, xattr: bytes))
        #expect(rule.allows(1, uid: 4242, groups: []))
        #expect(!rule.allows(4, uid: 4242, groups: []), "a passage lets an app through, never list")
        #expect(!rule.allows(1, uid: 7777, groups: [1000]), "nobody else passes, not even the owner's group")
    }

    @Test("no passage when every app runs as the owner or root: the directory stays the owner's alone")
    func noPassageForOwnerApps() {
        #expect(ViewAccessList.passage(appUIDs: [1000, 0, 1000], owner: 1000) == nil)
        #expect(ViewAccessList.passage(appUIDs: [UInt32](), owner: 1000) == nil)
    }

}

extension DoctorVerdictTests {
    @Test("refused originals fail with each path, its reason and where to see them all")
    func refusedOriginals() {
        var facts = healthy()
        facts.daemon?.refused = (1...7).map { ("Trip/\($0).jpg", "it belongs to another user; chown it") }
        let verdict = check("refused-originals", facts)
        #expect(verdict.outcome == .fail)
        #expect(verdict.detail.contains("7 originals") && verdict.detail.contains("Trip/1.jpg") && verdict.detail.contains("chown"))
        #expect(verdict.detail.contains("and 2 more"))
        #expect(verdict.advice?.contains("photolibctl assets --refused") == true)
    }

    @Test("files withheld from apps without location warn with each path, why, and the ways out; none withheld passes")
    func withheldFiles() {
        var facts = healthy()
        #expect(check("location-withheld", facts).outcome == .pass)
        facts.daemon?.withheld = [("Trip/damaged.jpg", "its metadata cannot be read or written: not a JPEG")]
        let verdict = check("location-withheld", facts)
        #expect(verdict.outcome == .warn)
        #expect(verdict.detail.contains("1 file is left out") && verdict.detail.contains("Trip/damaged.jpg") && verdict.detail.contains("not a JPEG"))
        #expect(verdict.advice?.contains("photolibctl assets --withheld") == true && verdict.advice?.contains("--location precise") == true)
    }

    @Test("a degraded daemon that cannot read part of the library names it, and says its photos are kept")
    func unreadableParts() {
        var facts = healthy()
        facts.daemon?.state = "degraded"
        facts.daemon?.unreadable = ["Trip", ""]
        let verdict = check("daemon", facts)
        #expect(verdict.outcome == .fail)
        #expect(verdict.detail.contains("Trip") && verdict.detail.contains("(the library itself)") && verdict.detail.contains("kept"))
        #expect(verdict.advice?.contains("chmod") == true)
    }

    @Test("a network library whose server is away fails the daemon check, says why and that nothing is lost, and what to do")
    func unavailableLibrary() {
        var facts = healthy()
        facts.daemon?.state = "unavailable"
        facts.daemon?.unavailable = (since: 1_796_600_000, reason: "the library's server does not answer (statx: EIO)")
        let verdict = check("daemon", facts)
        #expect(verdict.outcome == .fail)
        #expect(verdict.detail.contains("unavailable") && verdict.detail.contains("statx: EIO") && verdict.detail.contains("kept"))
        #expect(verdict.advice?.contains("server") == true && verdict.advice?.contains("by itself") == true)
        // The library cannot be looked at meanwhile: said as the same cause, not as a missing library.
        facts.libraryNode = nil
        let library = check("library", facts)
        #expect(library.outcome == .warn && library.detail.contains("cannot be reached now") && library.detail.contains("statx: EIO"))
        #expect(check("library-privacy", facts).detail.contains("its server does not answer"))
    }

    @Test("views of references pass when every app is served through FUSE, and name each app holding copies, with user_allow_other as the way out")
    func referenceViews() {
        var facts = healthy()
        facts.daemon?.viewMode = "references"
        facts.daemon?.viewModeReason = "the library is on fuse"
        #expect(check("view-entries", facts).outcome == .pass)
        facts.daemon?.copyingViews = [("org.example.Viewer", "it runs under a uid of its own, and /etc/fuse.conf does not set user_allow_other")]
        let verdict = check("view-entries", facts)
        #expect(verdict.outcome == .warn && verdict.detail.contains("org.example.Viewer holds copies"))
        #expect(verdict.advice?.contains("user_allow_other") == true && verdict.advice?.contains("/etc/fuse.conf") == true)
    }
}
