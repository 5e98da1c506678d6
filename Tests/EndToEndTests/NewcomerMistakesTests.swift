import Foundation
import Glibc
import Testing

/// What a person new to photolibd gets wrong in their first hour, each answered
/// with one line that says what is wrong and what to do, the documented exit
/// status, and nothing lost.
@Suite("A newcomer's mistakes", .serialized)
struct NewcomerMistakesTests {
    static var ctl: String { RunningDaemon.buildDirectory + "/photolibctl" }
    static var daemonBinary: String { RunningDaemon.buildDirectory + "/photolibd" }

    /// One line on stderr, the exit status, and the words it must hold.
    func expectOneLine(_ result: (status: Int32, stdout: String, stderr: String), status: Int32, saying words: [String],
                       _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(what): exit status \(result.status), \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        for word in words {
            #expect(result.stderr.contains(word), "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test("a mistyped command or option, or a bad value, is one line naming it, the nearest command and where help is; status 2")
    func mistypedCommands() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.ok("app", "add", "org.example.Viewer", "--uid", "4242")
        let cases: [([String], [String])] = [
            (["stauts"], ["'stauts' is not a command of photolibctl", "Did you mean 'status'?", "photolibctl --help"]),
            (["--json", "selction", "org.example.Viewer"], ["'selction' is not a command", "Did you mean 'selection'?"]),
            (["app", "ad", "org.example.X", "--uid", "1"], ["'ad' is not a command of photolibctl app", "Did you mean 'add'?"]),
            (["frobnicate"], ["'frobnicate' is not a command of photolibctl", "status, assets"]),
            (["status", "--bogus"], ["Unknown option '--bogus'.", "See 'photolibctl status --help'"]),
            (["select"], ["Missing expected argument '<app>'.", "See 'photolibctl select --help'"]),
            (["select", "org.example.Viewer", "a.jpg", "--for", "3x"], ["'3x' is not a duration", "90s, 15m"]),
            (["select", "org.example.Viewer", "a.jpg", "--until", "yesterday"], ["'yesterday' is not a time", "2026"]),
            (["select", "org.example.Viewer", "a.jpg", "--until", "2020-01-01T00:00"], ["ago", "give a time to come"]),
            (["report", "--since", "7q"], ["'7q' is not a duration"]),
            (["authorize", "org.example.Viewer", "maybe"], ["not an authorization status", "limited"]),
        ]
        for (arguments, words) in cases {
            await expectOneLine(try daemon.ctl(arguments), status: 2, saying: words, arguments.joined(separator: " "))
        }
        // Not found is 3, and says how to find what exists.
        for (arguments, words) in [
            (["select", "org.example.Viewer", "/etc/passwd"], ["not an asset in the library", "relative to the library"]),
            (["select", "org.example.Viewer", "../a.jpg"], ["not an asset in the library"]),
            (["answer", "99", "authorized"], ["No request 99 is pending", "photolibctl requests"]),
            (["watch", "org.example.Nope"], ["No app org.example.Nope", "photolibctl apps"]),
        ] {
            await expectOneLine(try daemon.ctl(arguments), status: 3, saying: words, arguments.joined(separator: " "))
        }
        // Nothing was changed by any of it.
        #expect(try await daemon.ok("selection", "org.example.Viewer", "--json").contains("\"assets\" : [\n\n  ]"))
        #expect(await !(try daemon.ok("apps")).contains("org.example.X"))
    }

    @Test("photolibctl refuses a socket path longer than a Unix socket may have, saying so rather than an errno; status 2")
    func clientSocketPathTooLong() async throws {
        let long = "/tmp/" + String(repeating: "s", count: 120)
        await expectOneLine(try run(Self.ctl, ["status", "--socket", long]), status: 2,
                      saying: ["is 125 bytes long", "at most 107", "shorter path"], "a 125-byte socket")
    }

    @Test("the daemon refuses, in one sentence, a library that is a file, a socket or endpoint path too long, and a config file that is missing or a directory")
    func daemonStartMistakes() async throws {
        let library = try TestLibrary()
        let file = library.root + "/not-a-directory"
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        func start(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await run(Self.daemonBinary, arguments)
        }
        let standard = ["--views-dir", library.views, "--state-dir", library.state]

        let isFile = try await start(["--library", file, "--socket", library.socket] + standard)
        #expect(isFile.status != 0)
        #expect(isFile.stderr.contains("The library path \(file) is not a directory"), "\(isFile.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x", "the file is left as it was")

        let longSocket = library.root + "/" + String(repeating: "s", count: 110)
        let tooLong = try await start(["--library", library.library, "--socket", longSocket] + standard)
        #expect(tooLong.status != 0)
        #expect(tooLong.stderr.contains("bytes long, and a Unix socket's path may have at most 107"), "\(tooLong.stderr)")

        // The main socket fits, but an app's endpoint beside it (photolibd-endpoints/view-…) would not.
        let deep = library.root + "/" + String(repeating: "d", count: 80 - library.root.utf8.count)
        try library.makeDirectory(deep)
        let endpoint = try await start(["--library", library.library, "--socket", deep + "/s"] + standard)
        #expect(endpoint.status != 0)
        #expect(endpoint.stderr.contains("An app's endpoint would be \(deep)/photolibd-endpoints/view-"), "\(endpoint.stderr)")
        #expect(!FileManager.default.fileExists(atPath: deep + "/s"), "it stopped before binding anything")

        let missing = try await start(["--config", library.root + "/nope.toml", "--socket", library.socket])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("The configuration file \(library.root)/nope.toml does not exist"), "\(missing.stderr)")

        let directory = try await start(["--config", library.root, "--socket", library.socket])
        #expect(directory.status != 0)
        #expect(directory.stderr.contains("it is a directory, not a file"), "\(directory.stderr)")
    }

    @Test("as an ordinary user, a library behind a directory it cannot enter is 'cannot be reached', never 'missing'; a config file it cannot look for is a warning, and the flags go on")
    func unreachableIsNotMissing() async throws {
        let owner = try await TestOwner()
        let library = try TestLibrary(owner: owner)
        // Root's own, 0700: the owner cannot enter it, so cannot tell what is inside.
        let locked = library.root + "/locked"
        try FileManager.default.createDirectory(atPath: locked + "/Pictures", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(locked, 0o700)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "/root"  // 0700 root: ~/.config cannot be looked at
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        environment.removeValue(forKey: "XDG_CONFIG_HOME")
        let daemon = owner.command(try ReachableCopies.binary("photolibd"))
        let result = try await run(daemon[0], Array(daemon.dropFirst()) + [
            "--library", locked + "/Pictures", "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket,
        ], environment: environment)
        #expect(result.status != 0)
        #expect(result.stderr.contains("The library \(locked)/Pictures cannot be reached by this user (permission denied"), "\(result.stderr)")
        #expect(!result.stderr.contains("does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("Cannot tell whether the configuration file /root/.config/photolibd/photolibd.toml exists"),
                "\(result.stderr)")

        // The same warning from doctor, which then goes on with its checks.
        let ctl = owner.command(try ReachableCopies.binary("photolibctl"))
        let doctor = try await run(ctl[0], Array(ctl.dropFirst()) + ["doctor", "--library", library.library, "--socket", library.socket],
                             environment: environment)
        #expect(doctor.stderr.contains("Cannot tell whether the configuration file"), "\(doctor.stderr)")
        #expect(!doctor.stdout.isEmpty, "doctor went on: \(doctor.stderr)")
    }
}
