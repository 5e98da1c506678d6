import PhotoLibCore
import Testing

@Suite("Doctor's verdicts")
struct DoctorVerdictTests {
    /// A healthy setup: every check passes.
    func healthy() -> SetupFacts {
        var facts = SetupFacts(library: "/home/a/Pictures", views: "/home/a/.local/share/photolibd/views",
                               socket: "/run/user/1000/photolibd.sock", ownerUID: 1000)
        facts.daemon = .init(state: "ready", scannedFiles: 10, failedWatches: 0, appUIDs: [1000])
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
        facts.maxUserWatches = 65_536
        facts.protectedHardlinks = 1
        return facts
    }

    func check(_ name: String, _ facts: SetupFacts) -> DoctorCheck {
        DoctorVerdicts.checks(facts).first { $0.name == name }!
    }

    @Test("a healthy setup passes every check, each with no advice")
    func healthyPasses() {
        let checks = DoctorVerdicts.checks(healthy())
        #expect(checks.map(\.name) == ["daemon", "library", "library-privacy", "views-mount", "view-permissions",
                                       "writable-originals", "inotify-watches", "socket", "protected-hardlinks"])
        for check in checks {
            #expect(check.outcome == .pass, "\(check)")
            #expect(check.advice == nil)
        }
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
        facts.daemon?.appUIDs = [1000, 4242]
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
        facts.daemon?.appUIDs = [1000, 4242]
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
}
