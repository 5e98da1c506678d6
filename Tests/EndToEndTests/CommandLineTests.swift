import Foundation
import Glibc
import Testing

/// Every bad input gets one clear line and a non-zero exit; nothing changes.
@Suite("photolibctl errors", .serialized)
struct CommandLineTests {
    @Test("with no daemon, photolibctl says so and how to start it")
    func daemonNotRunning() async throws {
        let library = try TestLibrary()
        let result = try await run(RunningDaemon.buildDirectory + "/photolibctl", ["status", "--socket", library.socket])
        #expect(result.status == 5, "the daemon not running is exit status 5")
        #expect(result.stderr.contains("photolibd is not running"))
        #expect(result.stderr.contains("start it"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--socket and --json may come before the command, as with systemctl; --help lists the exit statuses")
    func globalOptionsFirst() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        let ctl = RunningDaemon.buildDirectory + "/photolibctl"
        let status = try await run(ctl, ["--socket", library.socket, "status"])
        #expect(status.status == 0 && status.stdout.contains(library.library), "\(status.stderr)")
        let apps = try await run(ctl, ["--socket=\(library.socket)", "app", "add", "org.example.Viewer", "--uid", "4242"])
        #expect(apps.status == 0, "\(apps.stderr)")
        let listed = try await run(ctl, ["--json", "--socket", library.socket, "apps"])
        #expect(listed.stdout.hasPrefix("[") && listed.stdout.contains("org.example.Viewer"), "\(listed.stdout)")
        let help = try await run(ctl, ["--help"])
        let helpText = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // as wrapped to the terminal
        #expect(helpText.contains("Exit status") && helpText.contains("5 the daemon is not running"), "\(help.stdout)")
    }

    @Test("PHOTOLIBD_SOCKET is used when --socket is not given")
    func socketFromEnvironment() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        var environment = ProcessInfo.processInfo.environment
        environment["PHOTOLIBD_SOCKET"] = library.socket
        let result = try await run(RunningDaemon.buildDirectory + "/photolibctl", ["status"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.contains(library.library))
    }

    @Test("bad names, unknown apps, assets and albums are refused with one line each, and nothing changes")
    func badInputs() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.ok("app", "add", "org.example.Viewer", "--uid", "4242")
        // The exit statuses are the documented ones: 1 refused, 2 bad usage, 3 not found.
        let cases: [([String], String, Int32)] = [
            (["app", "add", "Viewer", "--uid", "1"], "reverse-DNS", 2),
            (["app", "add", "org.example.Viewer", "--uid", "1"], "already registered", 1),
            (["authorize", "org.example.Nope", "limited"], "No app org.example.Nope", 3),
            (["select", "org.example.Viewer", "missing.jpg"], "not an asset", 3),
            (["select", "org.example.Viewer", "a.jpg", "zzzzzzzzzzzzzzzz"], "No asset has the ID", 3),
            (["select", "org.example.Viewer", "--album", "Nope"], "not an album", 3),
            (["selection", "org.example.Nope"], "No app", 3),
            (["app", "remove", "org.example.Nope"], "No app", 3),
        ]
        for (arguments, expected, status) in cases {
            let result = try await daemon.ctl(arguments)
            #expect(result.status == status, "\(arguments): exit status \(result.status)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // The failed select with one good and one bad item selected nothing.
        #expect(try await daemon.ok("selection", "org.example.Viewer", "--json").contains("\"assets\" : [\n\n  ]"))
        let usage = try await daemon.ctl("authorize", "org.example.Viewer", "full")
        #expect(usage.status == 2)
        #expect(try await daemon.ctl("status", "--no-such-option").status == 2)
        #expect(usage.stderr.contains("not an authorization status"))
    }

    @Test("the daemon refuses a views directory it did not make, and one inside the library")
    func refusesForeignViewsDirectory() async throws {
        let library = try TestLibrary()
        try library.makeDirectory(library.views)
        _ = FileManager.default.createFile(atPath: library.views + "/precious.txt", contents: Data("keep".utf8))
        let foreign = try await run(RunningDaemon.buildDirectory + "/photolibd",
                              ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket])
        #expect(foreign.status != 0)
        #expect(foreign.stderr.contains("not made by photolibd"))
        #expect(FileManager.default.fileExists(atPath: library.views + "/precious.txt"))

        let inside = try await run(RunningDaemon.buildDirectory + "/photolibd",
                             ["--library", library.library, "--views-dir", library.library + "/views", "--state-dir", library.state, "--socket", library.socket])
        #expect(inside.status != 0)
        #expect(inside.stderr.contains("overlap"))
    }

    @Test("a bad configuration file stops start-up naming the file, line and key")
    func configurationErrors() async throws {
        let library = try TestLibrary()
        let config = library.root + "/photolibd.toml"
        try "library = \"\(library.library)\"\nviews_dri = \"/x\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await run(RunningDaemon.buildDirectory + "/photolibd", ["--config", config, "--socket", library.socket])
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(config):2: key 'views_dri': unknown key"))

        try "[assets]\nimage_extensions = \"jpg\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let typed = try await run(RunningDaemon.buildDirectory + "/photolibd", ["--config", config, "--socket", library.socket])
        #expect(typed.stderr.contains("key 'image_extensions': must be an array"))

        try "view_mode = \"reflinks\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let mode = try await run(RunningDaemon.buildDirectory + "/photolibd", ["--config", config, "--socket", library.socket])
        #expect(mode.stderr.contains("\(config):1: key 'view_mode': must be \"links\", \"clones\" or \"auto\""), "\(mode.stderr)")
    }

    @Test("the configuration file sets paths and extensions; flags override it")
    func configurationApplies() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        try library.write("b.xyz")
        let config = library.root + "/photolibd.toml"
        try """
            library = "\(library.root)/elsewhere"
            views_dir = "\(library.views)"
            state_dir = "\(library.state)"
            [assets]
            image_extensions = ["xyz"]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(library)
        try await daemon.start(extraArguments: ["--config", config])  // --library from the harness wins
        #expect(try await daemon.assets().keys.sorted() == ["b.xyz"])
    }
}

@Suite("One daemon per state directory", .serialized)
struct SingleInstanceTests {
    @Test("a second photolibd on the same state directory refuses to start, and the first keeps serving")
    func secondInstanceRefused() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        let second = try await run(RunningDaemon.buildDirectory + "/photolibd",
                             ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state,
                              "--socket", library.root + "/other.sock"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("Another photolibd already uses the state directory"))
        let same = try await run(RunningDaemon.buildDirectory + "/photolibd",
                           ["--library", library.library, "--views-dir", library.views, "--state-dir", library.root + "/state2",
                            "--socket", library.socket])
        #expect(same.stderr.contains("already listening"))
        #expect(try await daemon.ok("status").contains("ready"))
    }
}

@Suite("Views must share the library's mount", .serialized)
struct MountProbeTests {
    @Test("views on a bind mount of the same filesystem (EXDEV) or on a tmpfs: the daemon refuses and says what to change", arguments: [
        "mount --bind \"$R/real\" \"$R/bound\"", "mount -t tmpfs none \"$R/bound\"",
    ])
    func refusesOtherMount(mountCommand: String) async throws {
        guard getuid() == 0 else {
            Issue.record("this test mounts in a private mount namespace and must run as root (CI does)")
            return
        }
        let library = try TestLibrary()
        try library.write("a.jpg")
        // The mount exists only in the daemon's own namespace: nothing to clean up.
        let script = """
            R='\(library.root)'
            mkdir -p "$R/real" "$R/bound" && \(mountCommand) && exec '\(RunningDaemon.buildDirectory)/photolibd' \
              --library "$R/lib" --views-dir "$R/bound/views" --state-dir "$R/state" --socket "$R/sock"
            """
        let result = try await run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script])
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not on the same mount as the library"), "\(result.stderr)")
        #expect(result.stderr.contains("BindPaths="))
        #expect(!FileManager.default.fileExists(atPath: library.root + "/sock"))
    }
}
