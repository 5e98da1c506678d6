import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem
import Synchronization

/// Long work answered with progress: while a request that may take seconds is worked on, its
/// connection hears how far it is, and the reply follows the last progress line.
extension RequestRouter {
    /// How often progress is told, at most; work done sooner tells none.
    static let progressInterval: Duration = .milliseconds(500)

    /// Runs `work` with `progress` as the task's `WorkProgress.current`, and meanwhile sends its
    /// changes to `connection` as `progress` events for request `id`. The last one is written before
    /// this returns, so the reply comes after it.
    func withProgressReported<T: Sendable>(
        _ progress: WorkProgress, of id: RequestID, to connection: Connection, _ work: () async throws -> T
    ) async throws -> T {
        let channel = connection.channel
        // A child of this request's task: cancelled when the work ends, and awaited before the reply is returned.
        let outcome: Result<T, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                var told = WorkProgress.Snapshot()
                // Stopping, the event loops go: nothing more is told, and the reply says the work stopped.
                while (try? await Task.sleep(for: Self.progressInterval)) != nil, !StopRequest.isRequested {
                    let now = progress.snapshot
                    guard now.total > 0 || now.done > 0, now != told else { continue }
                    told = now
                    let event = ProgressEvent(requestID: id, stage: now.stage, done: Int64(now.done), total: Int64(now.total))
                    channel.writeAndFlush(ByteBuffer(bytes: encode(event)), promise: nil)
                }
            }
            defer { group.cancelAll() }
            do {
                return .success(try await WorkProgress.$current.withValue(progress) { try await work() })
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// A rescan's progress: the files walked so far, of the library's size before it. The walk runs
    /// on the watcher's task, not the request's, so it is read from the status board.
    func scanProgress() -> WorkProgress {
        let board = self.board
        let before = board.snapshot.scannedFiles
        // Before the walk starts, the board still shows the last one's count; after it, the views' reconcile follows.
        let walked = Mutex(false)
        return WorkProgress {
            let now = board.snapshot
            let scanning = now.phase == .scanning
            let done = walked.withLock { seen in
                if scanning { seen = true }
                return scanning ? now.scannedFiles : (seen ? max(now.scannedFiles, before) : 0)
            }
            return WorkProgress.Snapshot(stage: "scan", done: done, total: before)
        }
    }
}
