import Glibc

/// One running `photolibd-viewfs`: a view directory served read-only onto an app's folder through
/// FUSE (Sources/photolibd-viewfs, whose header comment is the whole protocol).
///
/// Its life is tied to this process's: its standard input and output are a socket to here, and it
/// unmounts the folder and exits when this end closes, however this process ends (a crash too).
public final class ViewFileSystem: Sendable {
    /// The app's folder the view is mounted on.
    public let mountPoint: String
    private let process: HelperProcess

    private static let ready: [UInt8] = Array("PLVIEWF1\n".utf8)

    /// Starts the server and waits, at most `seconds`, until the view is mounted.
    ///
    /// - Parameters:
    ///   - source: the view directory (links or clones), which only the owner can enter.
    ///   - inbox: where a new file the app saves goes; nil makes the mount read-only through and through.
    /// - Throws: `SystemCallError` when it cannot start, or ends or stays silent before it has
    ///   mounted (it says why on its standard error, which is this process's log).
    public init(executable: String, source: String, mountPoint: String, inbox: String?, seconds: Double = 10) throws(SystemCallError) {
        let process = try HelperProcess(executable, [source, mountPoint] + (inbox.map { [$0] } ?? []))
        do throws(SystemCallError) {
            try process.channel.setReceiveTimeout(seconds: seconds)
            var greeting: [UInt8] = []
            while greeting.count < Self.ready.count {
                let bytes: [UInt8]
                do {
                    bytes = try process.channel.read(maximum: Self.ready.count - greeting.count)
                } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                    throw SystemCallError("\(executable) (it did not mount \(mountPoint) within \(Int(seconds)) s)", errno: ETIMEDOUT)
                }
                if bytes.isEmpty {
                    throw SystemCallError("\(executable) (it ended before mounting \(mountPoint); its reason is in the log just before)", errno: EPIPE)
                }
                greeting += bytes
            }
            guard greeting == Self.ready else { throw SystemCallError("\(executable) (it did not greet as photolibd-viewfs)", errno: EPROTO) }
        } catch {
            process.kill()
            _ = try? process.reap()
            throw error
        }
        self.mountPoint = mountPoint
        self.process = process
    }

    /// The channel, to `poll`: it reads end of stream once the server has ended.
    public var channel: FileDescriptor { process.channel.descriptor }

    /// Whether the server has ended (then its folder is unmounted, or being unmounted, by its own unmounter).
    public func hasEnded() -> Bool {
        (try? process.exits(within: 0)) ?? true
    }

    /// Ends the server: its channel closed, it unmounts the folder (lazily: an app holding a file
    /// open does not keep the mount) and exits; killed when it has not within `grace` seconds, which
    /// unmounts too (its unmounter outlives it). Returns how it ended.
    @discardableResult
    public func stop(grace: Double = 5) -> HelperProcess.Ending? {
        process.channel.shutdownBoth()
        if (try? process.exits(within: grace)) != true { process.kill() }
        return try? process.reap()
    }
}
