import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem
import Testing

@Suite("Subscriptions and limits", .serialized)
struct SubscriptionTests {
    func started(config: String? = nil) async throws -> RunningDaemon {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        var arguments: [String] = []
        if let config {
            let path = library.root + "/photolibd.toml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            arguments = ["--config", path]
        }
        try await daemon.start(extraArguments: arguments)
        return daemon
    }

    @Test("an admin following every app hears each app's events, through the client's AsyncSequence")
    func adminFollowsEveryApp() async throws {
        let daemon = try await started()
        try await daemon.addApp("org.example.A", "authorized")
        let connection = try PhotoLibConnection(socketPath: daemon.library.socket, receiveTimeout: 60)
        let result = try connection.subscribe(app: nil, since: nil)
        #expect(result.apps == ["org.example.A"])
        try await daemon.addApp("org.example.B", "authorized", uid: 4243)  // added later: followed too
        try daemon.library.write("new.jpg")
        var heard: Set<String> = []
        for try await event in connection.events() where event.head.event == "change" {
            let change = try event.decode(ChangeEvent.self)
            if change.inserted.map(\.entry) == ["new.jpg"] { heard.insert(event.head.app) }
            if heard == ["org.example.A", "org.example.B"] { break }
        }
        #expect(heard == ["org.example.A", "org.example.B"])
    }

    @Test("photolibctl watch --json prints each event as one JSON line")
    func watchPrintsEvents() async throws {
        let daemon = try await started()
        try await daemon.addApp("org.example.A", "authorized")
        let outputPath = daemon.library.root + "/watch.out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = try SpawnedProcess(RunningDaemon.buildDirectory + "/photolibctl",
                                         ["watch", "org.example.A", "--json", "--socket", daemon.library.socket], output: outputPath)
        // Ended when the test is: a child still running at its end is killed and reaped off the pool.
        defer { process.signal(SIGTERM) }
        // The watch may not have subscribed yet: add files until one is reported.
        var attempt = 0
        try await waitUntil("watch to print a change") {
            try daemon.library.write("w\(attempt).jpg")
            attempt += 1
            return ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").contains("\"event\":\"change\"")
        }
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.contains("\"event\":\"change\"") }!
        let change = try MessageCoder().decode(ChangeEvent.self, from: Array(line.utf8))
        #expect(change.app == "org.example.A")
        #expect(change.inserted.first?.entry.hasPrefix("w") == true)
    }

    @Test("past max_connections a client gets tooManyConnections; closing one lets the next in")
    func connectionLimit() async throws {
        let daemon = try await started(config: "[protocol]\nmax_connections = 3\n")
        // The readiness check's own connection may not be let go of yet: each client is tried until it is admitted.
        func admitted() async throws -> RawClient {
            var client: RawClient?
            try await waitUntil("a connection to be admitted") {
                let made = try RawClient(daemon.library.socket)
                if made.admitted { client = made }
                return made.admitted
            }
            return try #require(client)
        }
        let first = try await admitted()
        let second = try await admitted()
        let third = try await admitted()
        let over = try UnixStreamSocketClient(daemon.library.socket)
        #expect(over.firstLine().contains("tooManyConnections"))
        _ = (first, second)
        third.socket.shutdownWrite()
        #expect(try third.line() == nil)
        try await waitUntil("a slot to free up") {
            (try? PhotoLibConnection(socketPath: daemon.library.socket)) != nil
        }
    }

    @Test("a half-open client (a line left unfinished) is closed after the idle timeout; a silent subscriber is not")
    func idleTimeout() async throws {
        let daemon = try await started(config: "[protocol]\nidle_timeout_seconds = 1\n")
        try await daemon.addApp("org.example.A", "authorized")
        let halfOpen = try RawClient(daemon.library.socket)
        try halfOpen.send("{\"id\":1,\"method\":")
        let subscriber = try EventReader(daemon, app: "org.example.A")
        #expect(try halfOpen.line() == nil)  // closed by the daemon within about a second
        try daemon.library.write("late.jpg")
        #expect(try await subscriber.nextChange().inserted.map(\.entry) == ["late.jpg"])
    }
}

/// Reads the first line a server sends, for connections refused at once.
struct UnixStreamSocketClient {
    let line: String

    init(_ path: String) throws {
        let socket = try UnixStreamSocket(connectingTo: path)
        try socket.setReceiveTimeout(seconds: 30)
        var bytes: [UInt8] = []
        while !bytes.contains(0x0A) {
            let chunk = try socket.read()
            if chunk.isEmpty { break }
            bytes += chunk
        }
        line = String(decoding: bytes, as: UTF8.self)
    }

    func firstLine() -> String { line }
}
