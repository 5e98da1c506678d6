import Glibc

/// `photolibd-inotify`, the process that reads libinotifytools' instance for the daemon.
///
/// libinotifytools is GPL-2.0-only and the daemon's Swift runtime is Apache-2.0, so they live in
/// two programs (docs/PACKAGING.md). The helper makes the instance and passes its descriptor
/// here (`SCM_RIGHTS`): watches are added and removed on it by this process, exactly as on an
/// instance of its own. The helper reads the events with `inotifytools_next_events` and writes
/// them back in the kernel's layout, cut by `InotifyRecords`. Its source, and the whole of its
/// protocol, is `Sources/photolibd-inotify/photolibd-inotify.c`.
public final class InotifyHelper: @unchecked Sendable {
    // @unchecked: everything here is used by the one thread that reads (see InotifySource).

    /// The instance the helper made; the caller adds watches on it, never reads it.
    public let instance: FileDescriptor
    private let process: HelperProcess
    private var records = InotifyRecords()
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)

    private static let hello: [UInt8] = Array("PLINOTF1".utf8)
    private static let failure: [UInt8] = Array("PLINOTFE".utf8)

    /// Starts `executable` and takes the instance it sends, waiting at most 10 s for it.
    ///
    /// - Throws: `SystemCallError` when the helper cannot be started, sends no
    ///   instance, or says why it could make none (its errno, such as `EMFILE`
    ///   for `fs.inotify.max_user_instances`).
    public init(executable: String) throws(SystemCallError) {
        let process = try HelperProcess(executable, [])
        do throws(SystemCallError) {
            try process.channel.setReceiveTimeout(seconds: 10)
            let first = try process.channel.receive(maximum: 12)
            guard first.bytes.count >= 8 else {
                first.descriptors.forEach { $0.close() }
                throw SystemCallError("\(executable) (it ended before sending its inotify instance)", errno: EPIPE)
            }
            if Array(first.bytes.prefix(8)) == Self.failure {
                first.descriptors.forEach { $0.close() }
                let code = first.bytes.count == 12 ? first.bytes[8...].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) } : EIO
                throw SystemCallError("inotify_init (in \(executable))", errno: code)
            }
            guard Array(first.bytes.prefix(8)) == Self.hello, first.descriptors.count == 1 else {
                first.descriptors.forEach { $0.close() }
                throw SystemCallError("\(executable) (it did not send an inotify instance)", errno: EPROTO)
            }
            try process.channel.setReceiveTimeout(seconds: 0)
            instance = first.descriptors[0]
        } catch {
            process.kill()
            _ = try? process.reap()
            throw error
        }
        self.process = process
    }

    deinit { buffer.deallocate() }

    /// Why `readAvailable` gave up on the helper, when the helper did not simply end: the signal
    /// that `end()` then reports is photolibd's own SIGKILL, not the cause.
    public private(set) var streamProblem: String?

    /// The socket the events arrive on, to wait on with `poll`.
    public var channel: FileDescriptor { process.channel.descriptor }

    /// What the channel holds now, without waiting: the events it completes,
    /// or `nil` once the helper has ended (end of stream, or a stream that is
    /// not inotify records). After `nil`, call `end()`.
    public func readAvailable() -> [InotifyEvent]? {
        var events: [InotifyEvent] = []
        while true {
            let count: Int
            do {
                count = try systemCall("recv (photolibd-inotify)") { recv(channel.rawValue, buffer.baseAddress!, buffer.count, Int32(MSG_DONTWAIT)) }
            } catch where error.errno == EAGAIN {
                return events
            } catch {
                streamProblem = "its socket failed (\(error))"
                return nil  // ECONNRESET and the like: the helper is gone
            }
            if count == 0 { return nil }
            do {
                events += try records.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } catch {
                // Not the kernel's layout: nothing after it can be trusted, and `end()` kills the helper.
                streamProblem = "it sent bytes that are not inotify records (a corrupt stream), so photolibd ended it"
                return nil
            }
            if count < buffer.count { return events }
        }
    }

    /// Ends the helper (if it still runs), reaps it and closes the instance; says how it ended
    /// (`nil`, and `reapFailure` says why, when it could not be reaped).
    @discardableResult
    public func end() -> HelperProcess.Ending? {
        process.kill()
        defer { instance.close() }
        do {
            return try process.reap()
        } catch {
            reapFailure = error
            return nil
        }
    }

    /// Why `end()` could not reap the helper, if it could not.
    public private(set) var reapFailure: SystemCallError?

    /// The helper's process ID, while it has not been reaped (for logs).
    public var pid: Int32 { process.pid }
}
