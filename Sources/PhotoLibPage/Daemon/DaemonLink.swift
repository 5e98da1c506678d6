import Dispatch
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

/// The page server's admin connection to photolibd, over the public socket protocol.
///
/// `PhotoLibConnection` blocks; its calls run on a serial queue of their own so
/// they never hold one of Swift's task threads. A connection that breaks (the
/// daemon restarted) is made again on the next call.
public final class DaemonLink: @unchecked Sendable {
    // @unchecked: `connection` is touched only on `queue`.
    public let socket: String
    private let queue = DispatchQueue(label: "photolibd-page daemon link")
    private var connection: PhotoLibConnection?

    public init(socket: String) {
        self.socket = socket
    }

    /// Calls `method` on the daemon and returns its typed result; a daemon error comes back as `PhotoLibError`.
    public func call<P: Codable & Sendable, R: Codable & Sendable>(_ method: Method, _ params: P, returning: R.Type) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(PhotoLibError) -> R in try self.callHere(method, params, returning: R.self) })
            }
        }
    }

    private func callHere<P: Codable & Sendable, R: Codable & Sendable>(_ method: Method, _ params: P, returning: R.Type) throws(PhotoLibError) -> R {
        for attempt in 0..<2 {
            if connection == nil { connection = try PhotoLibConnection(socketPath: socket, receiveTimeout: 120) }
            do {
                return try connection!.call(method, params, returning: R.self)
            } catch .connectionLost where attempt == 0 {
                connection = nil  // the daemon restarted: connect again, once
            }
        }
        throw .connectionLost
    }
}
