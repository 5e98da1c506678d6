import Glibc

/// One running `photolibd-viewfs`: a view directory served read-only onto an app's folder through
/// FUSE (Sources/photolibd-viewfs, whose header comment is the whole protocol).
///
/// Its life is tied to this process's: its standard input and output are a socket to here, and it
/// unmounts the folder and exits when this end closes, however this process ends (a crash too).
/// It is this process's child, or, where this process may not mount (no_new_privs: photolibd's
/// systemd units), an instance of its socket unit, reached through that socket.
public final class ViewFileSystem: Sendable {
    /// The app's folder the view is mounted on.
    public let mountPoint: String
    private let channel: UnixStreamSocket
    private let process: HelperProcess?

    private static let ready: [UInt8] = Array("PLVIEWF1\n".utf8)
    private static let request: [UInt8] = Array("PLVIEWR1".utf8)
    /// The request that hands the library too, after the view (the view's entries are references).
    private static let requestWithLibrary: [UInt8] = Array("PLVIEWR2".utf8)

    /// Starts the server as a child and waits, at most `seconds`, until the view is mounted.
    ///
    /// - Parameters:
    ///   - source: the view directory (links or clones), which only the owner can enter.
    ///   - inbox: where a new file the app saves goes; nil makes the mount read-only through and through.
    /// - Throws: `SystemCallError` when it cannot start, or ends or stays silent before it has
    ///   mounted (it says why on its standard error, which is this process's log).
    ///   - tag: the views directory's tag (`ViewMountName`), which names the mount.
    ///   - library: where the view's references point (`ViewEntryForm.references`), opened beneath it; nil where entries are files.
    ///   - reader: with `library`, the one uid (an app's own) that may read the mount (`allow_other`); nil: the owner's only.
    public init(executable: String, tag: String, source: String, mountPoint: String, inbox: String?, library: String? = nil,
                reader: UInt32? = nil, seconds: Double = 10) throws(SystemCallError) {
        let process = try HelperProcess(executable, ["--tag", tag] + (library.map { ["--library", $0] } ?? [])
                                        + (reader.map { ["--reader", String($0)] } ?? []) + [source, mountPoint] + (inbox.map { [$0] } ?? []))
        do throws(SystemCallError) {
            try Self.awaitGreeting(on: process.channel, of: executable, mountPoint: mountPoint, seconds: seconds)
        } catch {
            process.kill()
            _ = try? process.reap()
            throw error
        }
        self.mountPoint = mountPoint
        self.process = process
        channel = process.channel
    }

    /// Asks the server's socket unit (`photolibd-viewfs.socket`, an instance per connection) to serve
    /// `source` on `mountPoint`, handing it the open directories, and waits until it has mounted.
    public init(socket: String, tag: String, source: FileDescriptor, mountPoint: String, inbox: FileDescriptor?, library: FileDescriptor? = nil,
                reader: UInt32? = nil, seconds: Double = 10) throws(SystemCallError) {
        let channel = try UnixStreamSocket(connectingTo: socket)
        do throws(SystemCallError) {
            let readerField: [UInt8] = library != nil ? reader.map { Array(String($0).utf8) + [0] } ?? [] : []
            let message = (library == nil ? Self.request : Self.requestWithLibrary) + Array(mountPoint.utf8) + [0] + Array(tag.utf8) + [0]
                + readerField
            let descriptors = [source.rawValue] + (library.map { [$0.rawValue] } ?? []) + (inbox.map { [$0.rawValue] } ?? [])
            let sent = try DescriptorPassing.send(message[...], descriptors: descriptors, on: channel.descriptor.rawValue)
            guard sent == message.count else { throw SystemCallError("sendmsg to \(socket) (a part of the request)", errno: EMSGSIZE) }
            try Self.awaitGreeting(on: channel, of: "photolibd-viewfs through \(socket)", mountPoint: mountPoint, seconds: seconds)
        } catch {
            channel.shutdownBoth()  // closed when released
            throw error
        }
        self.mountPoint = mountPoint
        self.channel = channel
        process = nil
    }

    private static func awaitGreeting(on channel: UnixStreamSocket, of server: String, mountPoint: String, seconds: Double) throws(SystemCallError) {
        try channel.setReceiveTimeout(seconds: seconds)
        var greeting: [UInt8] = []
        while greeting.count < ready.count {
            let bytes: [UInt8]
            do {
                bytes = try channel.read(maximum: ready.count - greeting.count)
            } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                throw SystemCallError("\(server) (it did not mount \(mountPoint) within \(Int(seconds)) s)", errno: ETIMEDOUT)
            }
            if bytes.isEmpty {
                throw SystemCallError("\(server) (it ended before mounting \(mountPoint); its reason is in the log)", errno: EPIPE)
            }
            greeting += bytes
        }
        guard greeting == ready else { throw SystemCallError("\(server) (it did not greet as photolibd-viewfs)", errno: EPROTO) }
    }

    /// Whether the server has ended (then its folder is unmounted, or being unmounted, by its own
    /// unmounter): its child has exited, or the socket unit's instance closed the connection.
    public func hasEnded() -> Bool {
        if let process { return (try? process.exits(within: 0)) ?? true }
        var descriptor = pollfd(fd: channel.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = (try? systemCall("poll a view server's connection") { poll(&descriptor, 1, 0) }) ?? 1
        guard ready > 0 else { return false }
        var byte: UInt8 = 0
        return (try? systemCall("recv MSG_PEEK") { recv(channel.descriptor.rawValue, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) }) ?? 0 == 0
    }

    /// Ends the server: its channel closed, it unmounts the folder (lazily: an app holding a file
    /// open does not keep the mount) and exits; a child that has not within `grace` seconds is
    /// killed, which unmounts too (its unmounter outlives it). Returns how a child ended.
    @discardableResult
    public func stop(grace: Double = 5) -> HelperProcess.Ending? {
        channel.shutdownBoth()  // closed when this is released
        guard let process else { return nil }
        if (try? process.exits(within: grace)) != true { process.kill() }
        return try? process.reap()
    }
}
