import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

@Suite("systemd units and socket activation", .serialized)
struct SystemdUnitTests {
    /// Copies the units into `directory`, pointing ExecStart at the binary just built
    /// (`systemd-analyze verify` checks that it exists); `instance` names the template's copy.
    /// The binary is the reachable copy: a checkout's path may hold a space, which ExecStart= would split.
    static func stageUnits(in directory: String) throws {
        let binary = try ReachableCopies.binary("photolibd")
        let portal = try ReachableCopies.binary("photolibd-portal")
        for (source, name) in [("user/photolibd-portal.service", "photolibd-portal.service"), ("system/photolibd@.service", "photolibd@.service"), ("system/photolibd@.socket", "photolibd@.socket"),
                               ("system/photolibd@.service", "photolibd@tester.service"),
                               ("user/photolibd.service", "photolibd.service"), ("user/photolibd.socket", "photolibd.socket"),
                               ("user/photolibd-endpoint@.socket", "photolibd-endpoint@view-TEST0000000000000.socket")] {
            let text = try String(contentsOfFile: RunningDaemon.packageRoot + "/systemd/" + source, encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/photolibd", with: binary)
                .replacingOccurrences(of: "/usr/local/libexec/photolibd-portal", with: portal)
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
    }

    /// The overall exposure and each failed item's weight from `systemd-analyze security`.
    static func exposure(_ output: String) -> (overall: Double, items: [String: Double]) {
        var items: [String: Double] = [:]
        var overall = Double.infinity
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if line.contains("Overall exposure level"), let index = words.firstIndex(where: { $0.hasSuffix(":") && $0.contains(".service") }),
               index + 1 < words.count, let value = Double(words[index + 1]) {
                overall = value
            } else if line.hasPrefix("✗"), words.count > 2, let weight = Double(words.last!) {
                items[String(words[1])] = weight
            }
        }
        return (overall, items)
    }

    @Test("systemd-analyze verify passes on every unit, system and user")
    func verify() async throws {
        let library = try TestLibrary()
        try Self.stageUnits(in: library.root)
        let system = try await run("/usr/bin/systemd-analyze", ["verify", library.root + "/photolibd@.service", library.root + "/photolibd@.socket"])
        #expect(system.status == 0, "\(system.stdout)\(system.stderr)")
        try FileManager.default.createDirectory(atPath: library.root + "/runtime", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = library.root + "/runtime"
        let user = try await run("/usr/bin/systemd-analyze", ["--user", "verify", library.root + "/photolibd.service", library.root + "/photolibd.socket",
                                                         library.root + "/photolibd-endpoint@view-TEST0000000000000.socket",
                                                         library.root + "/photolibd-portal.service"],
                           environment: environment)
        #expect(user.status == 0, "\(user.stdout)\(user.stderr)")
    }

    @Test("systemd-analyze security --offline=true: the system template scores 0.5 or lower, each user unit too once 'runs as root' is set aside")
    func security() async throws {
        let library = try TestLibrary()
        try Self.stageUnits(in: library.root)
        let system = try await run("/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=5", library.root + "/photolibd@tester.service"])
        #expect(system.status == 0, "\(system.stdout)\(system.stderr)")
        let systemScore = Self.exposure(system.stdout)
        #expect(systemScore.overall <= 0.5, "\(system.stdout)")
        #expect(systemScore.items["User=/DynamicUser="] == nil, "the template must run as its user")

        try FileManager.default.createDirectory(atPath: library.root + "/runtime", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = library.root + "/runtime"
        for unit in ["photolibd.service", "photolibd-portal.service"] {
            let user = try await run("/usr/bin/systemd-analyze", ["--user", "security", "--offline=true", library.root + "/" + unit],
                               environment: environment)
            let userScore = Self.exposure(user.stdout)
            // Read offline, a user unit looks as if it ran as root; a user manager runs it as the user.
            let runsAsRoot = userScore.items["User=/DynamicUser="] ?? 0
            #expect(userScore.overall - runsAsRoot <= 0.5 + 1e-9, "\(unit): \(user.stdout)")
        }
    }

    @Test("started through systemd-socket-activate, photolibd serves on the socket it was passed and stops on SIGTERM")
    func socketActivation() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let log = library.root + "/activate.log"
        let launcher = try SpawnedProcess(
            "/usr/bin/systemd-socket-activate",
            ["-l", library.socket, RunningDaemon.buildDirectory + "/photolibd",
             "--library", library.library, "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket],
            output: log)
        try await waitUntil("systemd-socket-activate to listen") { FileManager.default.fileExists(atPath: library.socket) }
        // The first connection makes systemd-socket-activate exec the daemon, which then answers it.
        try await waitUntil("photolibd to become ready on the passed socket", timeout: 120) {
            guard launcher.isRunning else { throw TestFailure("exited: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")") }
            guard let connection = try? PhotoLibConnection(socketPath: library.socket, receiveTimeout: 30),
                  let status = try? connection.call(.status, NoParams(), returning: StatusResult.self) else { return false }
            return status.state == "ready" && status.assets == 1
        }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("Listening on the socket passed by systemd"), "\(text)")
        launcher.signal(SIGTERM)
        let status = await launcher.exited(timeout: 30)
        let after = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "photolibd did not stop cleanly on SIGTERM (wait status \(status.map(String.init) ?? "none: still running")): \(after)")
        // The socket belongs to systemd (here: systemd-socket-activate): the daemon leaves it.
        #expect(FileManager.default.fileExists(atPath: library.socket))
    }

    @Test("a SIGTERM sent the moment photolibd starts, before it can be ready, is caught: it stops cleanly (exit 0) once started, and starts again on the same state")
    func earlyTermination() async throws {
        let library = try TestLibrary()
        for index in 0..<50 { try library.write("a\(index).jpg") }
        let arguments = ["--library", library.library, "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket]
        // At once; as soon as the socket exists (the scan under way); as soon as it answers ready.
        for (round, moment) in ["at once", "socket bound", "ready"].enumerated() {
            let log = library.root + "/early-\(round).log"
            try? FileManager.default.removeItem(atPath: library.socket)
            let daemon = try SpawnedProcess(RunningDaemon.buildDirectory + "/photolibd", arguments, output: log)
            if moment != "at once" {
                try await waitUntil("photolibd: \(moment)", timeout: 120) {
                    guard daemon.isRunning else { return true }
                    guard FileManager.default.fileExists(atPath: library.socket) else { return false }
                    if moment == "socket bound" { return true }
                    guard let connection = try? PhotoLibConnection(socketPath: library.socket, receiveTimeout: 30),
                          let status = try? connection.call(.status, NoParams(), returning: StatusResult.self) else { return false }
                    return status.state == "ready"
                }
            }
            daemon.signal(SIGTERM)
            let status = await daemon.exited(timeout: 60)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            // At once, the signal may come while the runtime loads, before main: it then stops the process the default way.
            let acceptable: Set<Int32> = moment == "at once" ? [0, SIGTERM] : [0]
            #expect(status.map(acceptable.contains) == true,
                    "SIGTERM \(moment): wait status \(status.map(String.init) ?? "none: still running"): \(text)")
            if status == nil { daemon.signal(SIGKILL) }
        }
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        #expect(try await daemon.status().assets == 50)
        await daemon.stop()
    }

    @Test("an app's endpoint passed by systemd (named endpoint-VIEW) is adopted: a connection to it starts photolibd, the peer is that app, and the file stays systemd's")
    func endpointActivation() async throws {
        let library = try TestLibrary()
        try library.write("a.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start()
        try await daemon.addApp("org.example.Viewer", "authorized")
        let apps = try await JSONDecoder().decode([AppInfo].self, from: Data(try daemon.ok("apps", "--json").utf8))
        let endpoint = try #require(apps.first?.endpoint)
        let view = URL(fileURLWithPath: endpoint).lastPathComponent
        await daemon.stop()
        #expect(!FileManager.default.fileExists(atPath: endpoint), "the daemon removes the endpoints it bound itself")

        // As photolibd-endpoint@VIEW.socket and photolibd.socket pass them.
        let log = library.root + "/activate.log"
        let launcher = try SpawnedProcess(
            "/usr/bin/systemd-socket-activate",
            ["-l", library.socket, "-l", endpoint, "--fdname=photolibd.socket:endpoint-\(view)", RunningDaemon.buildDirectory + "/photolibd",
             "--library", library.library, "--views-dir", library.views, "--state-dir", library.state, "--socket", library.socket],
            output: log)
        try await waitUntil("systemd-socket-activate to listen") { FileManager.default.fileExists(atPath: endpoint) }
        // The app connects first: that starts the daemon, which greets it as the app.
        var connection: PhotoLibConnection?
        try await waitUntil("photolibd to answer on the passed endpoint", timeout: 120) {
            guard launcher.isRunning else { throw TestFailure("exited: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")") }
            connection = try? PhotoLibConnection(socketPath: endpoint, receiveTimeout: 30)
            return connection != nil
        }
        #expect(connection?.greeting.role == "app" && connection?.greeting.apps == ["org.example.Viewer"])
        let listed = try #require(connection).call(.list, NoParams(), returning: ListResult.self)
        #expect(listed.assets.map(\.entry) == ["a.jpg"])
        // The main socket was passed too: the admin is answered on it.
        #expect(try PhotoLibConnection(socketPath: library.socket, receiveTimeout: 30).greeting.role == "admin")
        launcher.signal(SIGTERM)
        #expect(await launcher.exited(timeout: 30) != nil, "photolibd did not stop on SIGTERM")
        #expect(FileManager.default.fileExists(atPath: endpoint), "systemd's endpoint file stays for its unit")
    }
}
