import Glibc
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibProtocol
import PhotoLibSystem
import Synchronization
import TestSupport
import Testing

/// One connection served on NIO's async testing channel (the embedded channel of async code), through the
/// very pipeline the socket server builds, by a fake of what the daemon serves: framing, a peer that reads
/// nothing, a peer that leaves while its request is being answered, refusals, and the idle rule.
@Suite("A connection's handler")
struct ConnectionHandlerTests {
    /// What the daemon serves, faked: every request is answered with its own line, except one that says
    /// "hold", which waits until the test lets it go.
    final class FakeServer: ConnectionServing {
        let hub = SubscriptionHub()
        let refusal: PhotoLibError?
        /// The lines handled, in order; and what became of connections.
        let log = Mutex<[String]>([])
        private let held = Mutex<CheckedContinuation<Void, Never>?>(nil)

        init(refusal: PhotoLibError? = nil) {
            self.refusal = refusal
        }

        var entries: [String] { log.withLock { $0 } }

        func role(listener: PeerAdmission.Listener, uid: UInt32, sandbox: SandboxIdentity) -> Result<PeerRole, PhotoLibError> {
            refusal.map { .failure($0) } ?? .success(.admin)
        }

        func greeting(for role: PeerRole) -> [UInt8] { Array("hello\n".utf8) }

        func errorLine(_ error: PhotoLibError, id: RequestID?) -> [UInt8] { Array("error \(error.code)\n".utf8) }

        func handle(_ line: [UInt8], connection: Connection) async -> [UInt8]? {
            let text = String(decoding: line, as: UTF8.self)
            log.withLock { $0.append(text) }
            if text == "hold" {
                await withCheckedContinuation { continuation in held.withLock { $0 = continuation } }
            }
            return Array("reply \(text)\n".utf8)
        }

        /// Lets the held request go (once it is held).
        func release() async throws {
            try await waitFor("the held request") { self.held.withLock { $0 != nil } }
            held.withLock { $0?.resume(); $0 = nil }
        }

        func opened(_ connection: Connection) { log.withLock { $0.append("opened") } }
        func closed(_ connection: Connection) { log.withLock { $0.append("closed") } }
        func left(_ connection: Connection) async { log.withLock { $0.append("left") } }
        func awaitsPerson(_ connection: Connection) -> Bool { false }
    }

    /// A connection of uid 1000 being served on a testing channel, and how to drive it.
    struct Served {
        let channel = NIOAsyncTestingChannel()
        let server: FakeServer
        let limits: ConnectionLimits
        let task: Task<Void, Never>
        let activity: ConnectionActivity

        init(server: FakeServer = FakeServer(), lineLimit: Int = 1024, maxConnections: Int = 4) async throws {
            self.server = server
            var settings = ConnectionLimits.Settings()
            settings.maxConnections = maxConnections
            settings.idleTimeoutSeconds = 60
            let limits = ConnectionLimits(settings)
            self.limits = limits
            try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer"))
            let (channel, idle) = (channel, settings.idleTimeoutSeconds)
            let accepted = try await channel.testingEventLoop.executeInContext {
                try AcceptedConnection.configure(channel, idleTimeoutSeconds: idle, lineLimit: lineLimit,
                                                 errorLine: { server.errorLine($0, id: nil) }, logger: Logger(label: "connection-test"))
            }
            activity = accepted.activity
            let handler = ConnectionHandler(server: server, limits: limits, logger: Logger(label: "connection-test"))
            task = Task { await handler.serve(accepted, listener: .main, uid: 1000, sandbox: .host) }
        }

        func send(_ text: String) async throws {
            try await channel.writeInbound(ByteBuffer(string: text))
        }

        /// Waits (10 s at most) for the daemon's side to close the connection.
        func closes() async throws {
            try await waitFor("the connection closed") { !channel.isActive }
        }

        /// The next line written to the peer (10 s at most).
        func line() async throws -> String {
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                if let buffer = try await channel.readOutbound(as: ByteBuffer.self) { return String(buffer: buffer) }
                guard ContinuousClock.now < deadline else {
                    Issue.record("waited 10 s for a line to the peer")
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    @Test("lines are framed whatever the writes' cuts, blank lines skipped, and answered in order after the greeting")
    func framing() async throws {
        let served = try await Served()
        #expect(try await served.line() == "hello\n")
        try await served.send("fir")
        try await served.send("st\n\n  \nsecond\nthi")
        try await served.send("rd\n")
        #expect(try await served.line() == "reply first\n")
        #expect(try await served.line() == "reply second\n")
        #expect(try await served.line() == "reply third\n")
        #expect(served.server.entries == ["opened", "first", "second", "third"])
        try await served.channel.close()
        await served.task.value
        // Both, in either order: the close's callbacks run on the event loop while the task sees its lines end
        // on a thread of the pool (a run under load had "left" first). Which comes first matters only while a
        // request is being answered, and "the peer leaves while its request is answered" below holds that.
        #expect(Set(served.server.entries.suffix(2)) == ["closed", "left"])
    }

    @Test("a line over the limit: one error line, the connection closed, and nothing of it answered")
    func overLongLine() async throws {
        let served = try await Served(lineLimit: 16)
        #expect(try await served.line() == "hello\n")
        try await served.send("short\n")
        #expect(try await served.line() == "reply short\n")
        try await served.send(String(repeating: "x", count: 20))
        try await served.send(String(repeating: "x", count: 20))
        #expect(try await served.line() == "error lineTooLong\n")
        try await served.closes()
        await served.task.value
        #expect(!served.server.entries.contains { $0.hasPrefix("x") })
    }

    @Test("a peer that reads nothing: its replies wait, no further request is answered meanwhile, and none is lost once it reads")
    func slowReader() async throws {
        let served = try await Served()
        #expect(try await served.line() == "hello\n")
        served.channel.isWritable = false
        served.channel.pipeline.fireChannelWritabilityChanged()
        try await served.send((1...100).map { "r\($0)\n" }.joined())
        try await waitFor("the first request answered") { served.server.entries.contains("r1") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(served.server.entries.count <= 3, "requests answered while their replies could not be written: \(served.server.entries)")
        served.channel.isWritable = true
        served.channel.pipeline.fireChannelWritabilityChanged()
        for n in 1...100 { #expect(try await served.line() == "reply r\(n)\n") }
        try await served.channel.close()
        await served.task.value
    }

    @Test("requests piled up past the bytes allowed: an error and a disconnect, not a buffer without end")
    func pileUp() async throws {
        let served = try await Served(lineLimit: 3 << 20)  // the bound is then twice the line limit: 6 MiB
        #expect(try await served.line() == "hello\n")
        try await served.send("hold\n")
        try await waitFor("the held request") { served.server.entries.contains("hold") }
        let big = String(repeating: "b", count: 5 << 19) + "\n"  // 2.5 MiB
        for _ in 1...3 { try await served.send(big) }
        #expect(try await served.line() == "error malformedRequest\n")
        try await served.closes()
        try await served.server.release()
        await served.task.value
        #expect(served.server.entries.filter { $0.hasPrefix("b") }.count <= 2)
    }

    @Test("the peer leaves while its request is answered: what it holds is let go at once, the task ends once the answer is ready")
    func leavesInFlight() async throws {
        let served = try await Served(maxConnections: 1)
        #expect(try await served.line() == "hello\n")
        try await served.send("hold\n")
        try await waitFor("the held request") { served.server.entries.contains("hold") }
        #expect(served.limits.admit(uid: 1001, limitedPerUID: true) != nil, "the connection counts against the limits while open")
        try await served.channel.close()
        try await waitFor("the connection let go") { served.server.entries.contains("closed") }
        #expect(served.limits.admit(uid: 1001, limitedPerUID: true) == nil, "its place in the limits was released at once")
        #expect(!served.server.entries.contains("left"), "the task is still answering")
        try await served.server.release()
        await served.task.value
        #expect(served.server.entries.last == "left")
    }

    @Test("a peer that is nobody's is told why and disconnected; nothing is opened for it")
    func refused() async throws {
        let served = try await Served(server: FakeServer(refusal: .notPermitted(uid: 1000)))
        #expect(try await served.line() == "error notPermitted\n")
        try await served.closes()
        await served.task.value
        #expect(served.server.entries.isEmpty)
    }

    @Test("before its greeting the peer waits for the daemon: the idle timeout does not close it, however late the daemon is; after it, it does")
    func idleBeforeGreeting() async throws {
        // The pipeline as the server builds it, its task not started yet: a daemon whose tasks are all busy.
        let channel = NIOAsyncTestingChannel()
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer"))
        let server = FakeServer()
        let accepted = try await channel.testingEventLoop.executeInContext {
            try AcceptedConnection.configure(channel, idleTimeoutSeconds: 60, lineLimit: 1024, errorLine: { server.errorLine($0, id: nil) },
                                             logger: Logger(label: "connection-test"))
        }
        channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        await channel.testingEventLoop.run()
        #expect(channel.isActive, "closed before the daemon said hello: the client, reading its greeting, is told the connection was lost")
        let handler = ConnectionHandler(server: server, limits: ConnectionLimits(.init()), logger: Logger(label: "connection-test"))
        let task = Task { await handler.serve(accepted, listener: .main, uid: 1000, sandbox: .host) }
        let deadline = ContinuousClock.now + .seconds(10)
        var greeting: ByteBuffer?
        while greeting == nil, ContinuousClock.now < deadline {
            greeting = try await channel.readOutbound(as: ByteBuffer.self)
            if greeting == nil { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(greeting.map { String(buffer: $0) } == "hello\n")
        try await waitFor("the greeting counted") { !accepted.activity.isListening }
        channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        try await waitFor("the connection closed") { !channel.isActive }
        await task.value
    }

    @Test("silent for the idle timeout: closed, unless a request of its is being answered; always with a line left unfinished")
    func idle() async throws {
        // The idle timer's event itself: IdleStateHandler measures with the real clock, not the testing loop's.
        let busy = try await Served()
        #expect(try await busy.line() == "hello\n")
        try await busy.send("hold\n")
        try await waitFor("the held request") { busy.server.entries.contains("hold") }
        busy.channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        await busy.channel.testingEventLoop.run()
        #expect(busy.channel.isActive, "closed while its request was being answered")
        try await busy.server.release()
        #expect(try await busy.line() == "reply hold\n")
        try await waitFor("the request's end counted") { !busy.activity.isListening }
        busy.channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        try await busy.closes()
        await busy.task.value

        let unfinished = try await Served()
        #expect(try await unfinished.line() == "hello\n")
        try await unfinished.send("hold\n")
        try await waitFor("the held request") { unfinished.server.entries.contains("hold") }
        try await unfinished.send("half a li")
        unfinished.channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        try await unfinished.closes()
        try await unfinished.server.release()
        await unfinished.task.value
    }
}

/// What the server's accept side hands its task: nothing accepted is dropped at a stop, nothing after it is served.
@Suite("Connections arriving at the server")
struct ConnectionArrivalsTests {
    /// Hands `channel` to `arrivals` on its event loop, as the server's channel initializer does.
    func arrive(_ channel: NIOAsyncTestingChannel, at arrivals: ConnectionArrivals) async throws {
        try await channel.testingEventLoop.executeInContext {
            try arrivals.arrive(channel, through: .main) {
                try AcceptedConnection.configure(channel, idleTimeoutSeconds: 60, lineLimit: 1024, errorLine: { _ in [] },
                                                 logger: Logger(label: "arrivals-test"))
            }
        }
    }

    @Test("connections that arrived before the stop are all handed over, then the signals end; one arriving after it is closed, never wrapped")
    func stop() async throws {
        let arrivals = ConnectionArrivals()
        let channels = [NIOAsyncTestingChannel(), NIOAsyncTestingChannel(), NIOAsyncTestingChannel()]
        for channel in channels { try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/peer")) }
        try await arrive(channels[0], at: arrivals)
        let taken = arrivals.take()
        #expect(taken.count == 1)
        #expect(arrivals.serving(channels[0]))
        try await arrive(channels[1], at: arrivals)
        arrivals.stop()
        let left = arrivals.take()
        await channels[0].testingEventLoop.run()
        #expect(!channels[0].isActive, "a connection being served is closed by the stop")
        #expect(left.count == 1, "one still waiting at the stop is still taken, to be closed through its async channel")
        try await arrive(channels[2], at: arrivals)
        await channels[2].testingEventLoop.run()
        #expect(!channels[2].isActive)
        for arrival in taken + left { try await arrival.connection.channel.executeThenClose { _, _ in } }
        var signals = 0
        for await _ in arrivals.signals { signals += 1 }
        #expect(signals <= 1, "the signals end at the stop")
        #expect(!arrivals.serving(channels[1]), "after the stop nothing more is served")
    }
}

/// The socket server itself, on a real Unix socket: its run ended by cancellation (as when another of the
/// daemon's services fails) while connections pour in, none of them dropped unclosed.
@Suite("The socket server")
struct SocketServerTests {
    @Test("cancelled while 300 clients connect: its run returns, and every client is answered or closed, none left hanging")
    func cancelledUnderArrivals() async throws {
        let directory = try makeTemporaryDirectory("photolibd-server")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/photolibd.sock"
        let server = try await SocketServer(path: path, passed: nil, router: ConnectionHandlerTests.FakeServer(),
                                            limits: ConnectionLimits(.init()), logger: Logger(label: "server-test"))
        let running = Task { await server.run() }
        let clients = Mutex<[UnixStreamSocket]>([])
        // On a thread of its own: blocking calls on Swift's pool of two threads would stall the server's tasks.
        let connecting = onThread {
            for _ in 0..<300 {
                guard let client = try? UnixStreamSocket(connectingTo: path) else { continue }  // refused once closed
                clients.withLock { $0.append(client) }
            }
        }
        try await waitFor("the first clients") { clients.withLock { $0.count } >= 50 }
        let cancelled = ContinuousClock.now
        running.cancel()
        let ended = Mutex<Duration?>(nil)
        Task { await running.value; ended.withLock { $0 = ContinuousClock.now - cancelled } }
        // Under `make test`'s load a second or more; a minute means it waits for something that never comes.
        try await waitFor("the cancelled run to return", within: .seconds(60)) { ended.withLock { $0 } != nil }
        try await connecting.value
        // Each client reads its greeting or nothing, then the end: the server's loops are shut down, so a read
        // cannot wait.
        let read = onThread { try clients.withLock { $0 }.map { client in try Self.readToEnd(client) } }
        for received in try await read.value {
            #expect(received.isEmpty || String(decoding: received, as: UTF8.self) == "hello\n")
        }
    }

    /// What a client receives until the end, the end being a reset for one never accepted.
    static func readToEnd(_ client: UnixStreamSocket) throws -> [UInt8] {
        var received: [UInt8] = []
        do {
            while true {
                let bytes = try client.read()
                if bytes.isEmpty { break }
                received += bytes
            }
        } catch {
            // Still in the socket's backlog, never accepted, when it closed: the kernel resets it.
            guard error.errno == ECONNRESET else { throw error }
        }
        return received
    }
}

/// Waits up to `limit` (10 s unless said) for `condition`, failing with what never came.
func waitFor(_ what: String, within limit: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            Issue.record("waited \(limit) for \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
