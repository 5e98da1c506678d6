import CPortalBus
import Glibc
import PhotoLibSystem

/// The file-chooser backend's connection to the session bus (sd-bus, in
/// CPortalBus): it serves `org.freedesktop.impl.portal.FileChooser` under
/// `name`, hands each `OpenFile` to `handler`, and forwards what the handler
/// does not take, unchanged, to the backend named `forwardTo`.
///
/// `run()` serves on the calling thread until `stop()`; `reply`, `forward`,
/// `forgetDocuments` and `stop` may be called from any thread.
public final class PortalBus: @unchecked Sendable {
    // @unchecked: the C side keeps every sd-bus object on the thread in run();
    // its other entry points only queue work under a lock.

    /// What the backend decides and does; called on the bus's thread, so it must not block.
    public protocol Handler: AnyObject, Sendable {
        /// An `OpenFile` call, its arguments as JSON (CPortalBus's `photolib_portal_open_file`).
        /// True: the handler answers it later; false: it is forwarded now.
        func openFile(call: UInt64, arguments: [UInt8]) -> Bool
        /// The app closed a call the handler took; it must still be answered.
        func closed(call: UInt64)
        /// A line for the log (0 notice, 1 warning, 2 error).
        func log(level: Int, _ message: String)
    }

    /// Why the backend could not start.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let portal: OpaquePointer
    private let handler: any Handler

    public init(name: String, forwardTo: String, handler: any Handler) throws(Failure) {
        self.handler = handler
        var opened: OpaquePointer?
        var error = [CChar](repeating: 0, count: 512)
        let context = Unmanaged.passUnretained(handler as AnyObject).toOpaque()
        let status = photolib_portal_open(
            &opened, name, forwardTo,
            { context, call, json in
                let handler = Unmanaged<AnyObject>.fromOpaque(context!).takeUnretainedValue() as! any Handler
                let bytes = json.map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
                return handler.openFile(call: call, arguments: bytes) ? 1 : 0
            },
            { context, call in
                let handler = Unmanaged<AnyObject>.fromOpaque(context!).takeUnretainedValue() as! any Handler
                handler.closed(call: call)
            },
            { context, level, message in
                let handler = Unmanaged<AnyObject>.fromOpaque(context!).takeUnretainedValue() as! any Handler
                handler.log(level: Int(level), message.map { String(cString: $0) } ?? "")
            },
            context, &error, error.count)
        guard status == 0, let opened else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        portal = opened
    }

    deinit { photolib_portal_free(portal) }

    /// Serves until `stop()` or until the bus goes away.
    public func run() throws(SystemCallError) {
        let status = photolib_portal_run(portal)
        if status < 0 { throw SystemCallError("sd_event_loop", errno: -status) }
    }

    /// Answers a call the handler took: the response code and the chosen files' URIs.
    public func reply(call: UInt64, response: UInt32, uris: [String]) throws(SystemCallError) {
        let status = Self.withCStrings(uris) { pointers in photolib_portal_reply(portal, call, response, pointers, uris.count) }
        if status < 0 { throw SystemCallError("photolib_portal_reply", errno: -status) }
    }

    /// Passes a call the handler took on to the other backend after all.
    public func forward(call: UInt64) throws(SystemCallError) {
        let status = photolib_portal_forward(portal, call)
        if status < 0 { throw SystemCallError("photolib_portal_forward", errno: -status) }
    }

    /// Removes the Documents portal's lasting exports of these host paths, where there are any.
    public func forgetDocuments(_ paths: [String]) throws(SystemCallError) {
        guard !paths.isEmpty else { return }
        let status = Self.withCStrings(paths) { pointers in photolib_portal_forget_documents(portal, pointers, paths.count) }
        if status < 0 { throw SystemCallError("photolib_portal_forget_documents", errno: -status) }
    }

    public func stop() { photolib_portal_stop(portal) }

    /// Calls not yet answered (taken or forwarded).
    public var openCalls: Int { photolib_portal_open_calls(portal) }

    private static func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Int32) -> Int32 {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
