import Glibc
public import PhotoLibCore
public import PhotoLibProtocol
import PhotoLibSystem

/// A connection to photolibd's socket: send a request, get its typed result.
///
/// Blocking and simple: `photolibctl` makes one call per run. Every failure is
/// a `PhotoLibError` whose message tells the person what to do.
public final class PhotoLibConnection {
    public let socketPath: String
    public let greeting: Greeting
    private let socket: UnixStreamSocket
    /// Replies may be far longer than requests (a listing of 100,000 assets is ~15 MB).
    private var framer = LineFramer(limit: 1 << 30)
    private let coder = MessageCoder()
    private var nextID: Int64 = 1
    /// Events that arrived while a call waited for its reply, for `nextEvent()`.
    var earlyEvents: [[UInt8]] = []
    /// Descriptors passed with reply lines (a pick's files), oldest first, not yet taken.
    var receivedDescriptors: [FileDescriptor] = []
    /// True once the kernel dropped a passed descriptor (the process had too many open).
    var descriptorsDropped = false

    /// The socket to use: the explicit path, else `$PHOTOLIBD_SOCKET`, else the per-user
    /// default, else the system manager's `photolibd@USER` socket when only that exists.
    public static func socketPath(explicit: String?) -> String {
        explicit ?? ProcessIdentity.environment("PHOTOLIBD_SOCKET") ?? DefaultPaths.clientSocket()
    }

    /// The app's own endpoint, as a sandbox made with `photolibctl app sandbox`
    /// says it (`$PHOTOLIBD_ENDPOINT`); nil outside such a sandbox.
    public static var appEndpoint: String? {
        ProcessIdentity.environment("PHOTOLIBD_ENDPOINT").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Connects to the app's endpoint (`appEndpoint`), where the peer is that
    /// app and nothing more; an app outside a sandbox, with a uid of its own,
    /// may use the main socket instead (`socketPath(explicit:)`).
    public static func connectingToAppEndpoint(receiveTimeout: Int? = nil) throws(PhotoLibError) -> PhotoLibConnection {
        guard let endpoint = appEndpoint else {
            throw .invalidParameter(name: "PHOTOLIBD_ENDPOINT", reason: "it is not set; run the app in the sandbox 'photolibctl app sandbox APP' describes")
        }
        return try PhotoLibConnection(socketPath: endpoint, receiveTimeout: receiveTimeout)
    }

    /// Connects and reads the server's greeting. With `receiveTimeout`, a read
    /// that waits longer fails with `connectionLost` instead of blocking for ever.
    public init(socketPath: String, receiveTimeout: Int? = nil) throws(PhotoLibError) {
        self.socketPath = socketPath
        try SocketPathRule.check(socketPath)
        do {
            socket = try UnixStreamSocket(connectingTo: socketPath)
        } catch {
            switch error.errno {
            case ENOENT, ECONNREFUSED, ENOTDIR: throw .daemonNotRunning(socket: socketPath)
            default: throw .systemCall(name: "connect", path: socketPath, errno: error.errno)
            }
        }
        if let receiveTimeout {
            do {
                try socket.setReceiveTimeout(seconds: receiveTimeout)
            } catch {
                throw .systemCall(name: error.call, path: socketPath, errno: error.errno)
            }
        }
        var none: [FileDescriptor] = []
        var dropped = false
        let first = try Self.readLine(socket, &framer, &none, &dropped)  // a greeting carries no descriptors
        if let refusal = try? coder.decode(ErrorReply.self, from: first) {
            throw Self.error(from: refusal.error)
        }
        do {
            greeting = try coder.decode(Greeting.self, from: first)
        } catch {
            throw .protocolMismatch("the greeting is not understood")
        }
        guard greeting.protocol == ProtocolVersion.current else {
            throw .protocolMismatch("protocol \(greeting.protocol), expected \(ProtocolVersion.current)")
        }
    }

    /// Ends this connection from another thread: a call waiting on it fails
    /// with `connectionLost`, and the daemon withdraws what it asked (a pick).
    public struct Interrupter: Sendable {
        fileprivate let socket: UnixStreamSocket
        public func interrupt() { socket.shutdownBoth() }
    }

    /// A handle that may end this connection from any thread (it keeps the socket open until released).
    public var interrupter: Interrupter { Interrupter(socket: socket) }

    /// Sends one request and waits for its reply; `progress` hears how far long work is (the daemon
    /// tells it about twice a second while the reply is not ready: a view of a whole large library,
    /// a big selection, a rescan).
    public func call<P: Codable & Sendable, R: Codable & Sendable>(
        _ method: Method, _ params: P, returning: R.Type, progress: ((ProgressEvent) -> Void)? = nil
    ) throws(PhotoLibError) -> R {
        let id = RequestID.number(nextID)
        nextID += 1
        do {
            try socket.write(try coder.encodeLine(Request(id: id, method: method.rawValue, params: params, progress: progress == nil ? nil : true)))
        } catch {
            throw .connectionLost
        }
        while true {
            let line = try readLine()
            if let told = try? coder.decode(ProgressEvent.self, from: line), told.event == "progress" {
                if told.requestID == id { progress?(told) }
                continue
            }
            if (try? coder.decode(EventHead.self, from: line)) != nil {
                earlyEvents.append(line)  // a subscribed connection: kept in order for nextEvent()
                continue
            }
            if let failure = try? coder.decode(ErrorReply.self, from: line) {
                guard failure.id == nil || failure.id == id else { continue }
                throw Self.error(from: failure.error)
            }
            guard let reply = try? coder.decode(Reply<R>.self, from: line) else {
                throw .protocolMismatch("a reply to '\(method.rawValue)' has an unexpected shape")
            }
            guard reply.id == id else { continue }
            return reply.result
        }
    }

    /// The next line from the daemon, waiting as long as it takes. Reads with
    /// `recvmsg`, keeping any descriptors passed along (a plain read would
    /// make the kernel close them).
    func readLine() throws(PhotoLibError) -> [UInt8] {
        try Self.readLine(socket, &framer, &receivedDescriptors, &descriptorsDropped)
    }

    private static func readLine(
        _ socket: UnixStreamSocket, _ framer: inout LineFramer, _ descriptors: inout [FileDescriptor], _ dropped: inout Bool
    ) throws(PhotoLibError) -> [UInt8] {
        while true {
            do {
                if let line = try framer.nextLine() { return line }
            } catch {
                throw .protocolMismatch("a reply line is longer than \(framer.limit) bytes")
            }
            let received: UnixStreamSocket.Received
            do {
                received = try socket.receive()
            } catch {
                throw .connectionLost
            }
            descriptors += received.descriptors
            if received.truncated { dropped = true }
            if received.bytes.isEmpty { throw .connectionLost }
            framer.append(received.bytes)
        }
    }

    deinit {
        for fd in receivedDescriptors { fd.close() }
    }

    /// A server error as the client's error type, keeping the server's sentence.
    static func error(from body: ErrorReply.Body) -> PhotoLibError {
        .remote(code: body.code, message: body.message)
    }
}
