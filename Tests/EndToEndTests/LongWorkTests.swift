import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Synchronization
import Testing
import TestSupport

/// Work that takes seconds, as a person meets it: Full Access for an app over a library of tens of
/// thousands of photos on XFS, where each entry is a reflink clone. The request is answered however
/// long it takes, with progress meanwhile; a stop (SIGTERM) in the middle ends the daemon within
/// 10 s, and the next start finishes the view.
@Suite("Long work: answered with progress, stopped within 10 s", .serialized)
struct LongWorkTests {
    static let app = "org.example.Everything"
    static let albums = 100
    static let perAlbum = 200
    static var files: Int { albums * perAlbum }

    /// A daemon (links made as clones) on a library of `files` photos on an XFS of its own, indexed.
    static func started(configuration: String) async throws -> RunningDaemon {
        let daemon = try await RunningDaemon.startedByOwner(on: try ScratchFilesystem(.xfs, megabytes: 1024),
                                                            configuration: "view_mode = \"clones\"\n" + configuration) { lib in
            for album in 0..<albums {
                try lib.makeDirectory(lib.path("Roll \(album)"))
                for index in 0..<perAlbum { try lib.write(Array("Roll \(album)/IMG_\(index).jpg".utf8), contents: "photo \(album)/\(index)") }
            }
        }
        try await waitUntil("the library indexed", timeout: 120) { try await daemon.status().assets == files }
        try await daemon.ok("app", "add", app, "--uid", "4242", "--location", "precise")
        return daemon
    }

    /// `authorize APP authorized` through the client library, on a thread of its own, with `onProgress`
    /// called (on that thread) for each progress event before the reply.
    static func authorize(_ daemon: RunningDaemon, onProgress: @escaping @Sendable (ProgressEvent) -> Void)
        -> Task<Result<AppInfo, PhotoLibError>, any Error> {
        let socket = daemon.library.socket
        return onThread {
            let connection = try PhotoLibConnection(socketPath: socket)
            return Result { () throws(PhotoLibError) -> AppInfo in
                try connection.call(.authorize, AuthorizeParams(app: app, status: "authorized", access: nil), returning: AppInfo.self,
                                    progress: onProgress)
            }
        }
    }

    @Test("with idle_timeout_seconds = 1, Full Access over 20,000 clones is answered after seconds of silence, with its progress first")
    func longRequestAnswered() async throws {
        let daemon = try await Self.started(configuration: "[protocol]\nidle_timeout_seconds = 1\n")
        defer { daemon.stopLater() }
        let process = try #require(daemon.process)
        let heard = Mutex<[ProgressEvent]>([])
        let started = Date()
        let request = Self.authorize(daemon) { event in
            let first = heard.withLock { heard in
                heard.append(event)
                return heard.count == 1
            }
            // Work under way (its progress came): the daemon says nothing for 2.5 s, longer than the idle timeout.
            if first {
                process.signal(SIGSTOP)
                usleep(2_500_000)
                process.signal(SIGCONT)
            }
        }
        let reply = try await request.value
        let seconds = Date().timeIntervalSince(started)
        let info = try reply.get()
        #expect(info.readWrite == "authorized")
        let events = heard.withLock { $0 }
        #expect(!events.isEmpty, "no progress in \(seconds) s of work")
        #expect(seconds > 2.5, "the request was answered after \(seconds) s: the daemon was stopped for 2.5 s of it")
        #expect(events.allSatisfy { $0.stage == "view" && $0.total == Int64(Self.files) && $0.done <= $0.total }, "\(events)")
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.done <= $1.done }, "progress goes forward: \(events.map(\.done))")
        #expect(await daemon.viewEntries(Self.app).count == Self.files)
        // photolibctl shows the same on a terminal; not on a pipe, where only the result is printed.
        let printed = try await daemon.ok("authorize", Self.app, "authorized")
        #expect(!printed.contains("Making the view"), "\(printed)")
    }

    @Test("SIGTERM in the middle of Full Access over 20,000 clones, on a tenth of a core, ends the daemon within 10 s; the next start finishes the view")
    func stopDuringLongWork() async throws {
        let daemon = try await Self.started(configuration: "")
        defer { daemon.stopLater() }
        let process = try #require(daemon.process)
        let view = await daemon.view(Self.app)
        // A tenth of one core: the view takes some 20 s, as a library many times this size would on this machine.
        let throttle = try CPUThrottle(process.pid, percent: 10)
        let stoppedAt = Mutex<Date?>(nil)
        let request = Self.authorize(daemon) { _ in
            stoppedAt.withLock { stoppedAt in
                guard stoppedAt == nil else { return }
                stoppedAt = Date()
                process.signal(SIGTERM)
            }
        }
        let ending = await process.exited(timeout: 30)
        let took = stoppedAt.withLock { $0 }.map { Date().timeIntervalSince($0) }
        guard let sent = took else {
            Issue.record("the request made no progress before it was answered: \(String(describing: try? await request.value))")
            return
        }
        #expect(ending == .exited(0), "photolibd \(ending.map { "\($0)" } ?? "still runs 30 s after SIGTERM"); \(daemon.log.suffix(2000))")
        #expect(sent < 10, "photolibd took \(sent) s to stop after SIGTERM")
        // The reply, if the connection was still there for it, says the daemon stopped; the change itself stands.
        switch try await request.value {
        case .success(let info): Issue.record("the request was answered as if done, though the daemon stopped in its middle: \(info)")
        case .failure(let error): #expect(error == .connectionLost || error.code == "stopping", "\(error)")
        }
        let madeBeforeTheStop = daemon.library.files(below: view).count
        print("photolibd ended \(String(format: "%.2f", sent)) s after SIGTERM, with \(madeBeforeTheStop) of \(Self.files) entries made on a tenth of a core")
        #expect(madeBeforeTheStop < Self.files, "the view was finished before the stop: the test proves nothing")
        withExtendedLifetime(throttle) {}
        #expect(daemon.log.contains("Stopping."))
        try await daemon.start(extraArguments: ["--config", daemon.library.root + "/photolibd.toml"])
        #expect(try await daemon.ok("apps", "--json").contains("\"authorized\""))
        try await waitUntil("the view finished by the next start", timeout: 120) { await daemon.viewEntries(Self.app).count == Self.files }
    }
}
