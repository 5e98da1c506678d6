import Dispatch
import Foundation
import PhotoLibProtocol
import PhotoLibSystem

/// What a thumbnail request produced.
public enum ThumbnailOutcome: Sendable, Equatable {
    case png([UInt8])
    /// Why this file has no thumbnail (the page shows a placeholder, and does not ask again);
    /// for a video, how long it is when its header says.
    case failed(String, duration: Double? = nil)
    /// Why no thumbnail could be made now, through no fault of the file (a decoder that cannot start).
    case unavailable(String)
}

/// Decoder processes (`photolibd-thumbnailer`), one per core, that make the page's thumbnails.
///
/// No image is decoded in the page server itself: a file that crashes a
/// decoder, hangs it past its time or asks for more memory than it may have
/// costs that one decoder, which is replaced, and a placeholder for that file.
/// Decoders left idle exit by themselves, so a page left open holds no
/// decoder's memory.
public actor DecoderPool {
    /// How the decoders are started and bounded.
    public struct Settings: Sendable {
        /// The `photolibd-thumbnailer` executable (installed beside photolibd-page).
        public var executable: String
        /// How many decode at once: the machine's cores, by default.
        public var size: Int
        /// A decoder that takes longer than this for one file is killed.
        public var maxSeconds: Double
        /// The address space each decoder may use.
        public var memoryBytes: UInt64
        /// A decoder with no work for this long exits.
        public var idleSeconds: Double

        public init(executable: String, size: Int = ProcessInfo.processInfo.activeProcessorCount, maxSeconds: Double = 20,
                    memoryBytes: UInt64 = 1 << 30, idleSeconds: Double = 30) {
            self.executable = executable
            self.size = max(1, size)
            self.maxSeconds = maxSeconds
            self.memoryBytes = memoryBytes
            self.idleSeconds = idleSeconds
        }

        var arguments: [String] {
            ["--memory", String(memoryBytes), "--idle", String(idleSeconds)]
        }
    }

    private struct Idle {
        var helper: HelperProcess
        var since: ContinuousClock.Instant
    }

    private let settings: Settings
    private var idle: [Idle] = []
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(settings: Settings) {
        self.settings = settings
    }

    /// A thumbnail of the file at `path` (its bytes), made by a decoder.
    public func make(path: [UInt8], uri: String, mtime: Int64, isVideo: Bool) async -> ThumbnailOutcome {
        let request = DecodeRequest(path: path, uri: uri, mtime: mtime, video: isVideo)
        for attempt in 0..<2 {
            let helper: HelperProcess
            do {
                helper = try await checkOut()
            } catch {
                return .unavailable("a decoder could not be started (\(error)); check that \(settings.executable) can run")
            }
            let outcome = await Self.ask(helper, request, maxSeconds: settings.maxSeconds)
            switch outcome {
            case .made(let made):
                checkIn(helper)
                return made
            case .decoderEnded(let ending, let busy):
                checkIn(nil)
                // A decoder that had exited (idle) before it read the request is not the file's fault: once more.
                if !busy && attempt == 0 { continue }
                return .failed("the decoder \(ending) while reading this file")
            case .timedOut:
                checkIn(nil)
                let limit = settings.maxSeconds.rounded() == settings.maxSeconds ? String(Int(settings.maxSeconds)) : String(settings.maxSeconds)
                return .failed("decoding took longer than \(limit) s; its decoder was stopped")
            }
        }
        return .unavailable("decoders keep exiting before they read a request; see the page server's log")
    }

    private enum Outcome {
        case made(ThumbnailOutcome)
        /// `busy`: the decoder had read the request.
        case decoderEnded(HelperProcess.Ending, busy: Bool)
        case timedOut
    }

    /// Sends one request and waits for its reply, on a thread of its own (the calls block).
    private static func ask(_ helper: HelperProcess, _ request: DecodeRequest, maxSeconds: Double) async -> Outcome {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: askHere(helper, request, maxSeconds: maxSeconds))
            }
        }
    }

    private static func askHere(_ helper: HelperProcess, _ request: DecodeRequest, maxSeconds: Double) -> Outcome {
        func ended(busy: Bool) -> Outcome {
            helper.kill()  // it may be alive yet broken; reap needs it gone
            return .decoderEnded((try? helper.reap()) ?? .exited(-1), busy: busy)
        }
        do {
            try helper.channel.setReceiveTimeout(seconds: maxSeconds)
            try helper.channel.write(DecoderLine.encode(request))
        } catch {
            return ended(busy: false)
        }
        var reader = StreamReader { try helper.channel.read() }
        do {
            guard let line = try reader.line(), let reply = DecoderLine.decode(DecodeReply.self, line) else { return ended(busy: true) }
            if reply.idle == true { return ended(busy: false) }
            if let error = reply.error { return .made(.failed(error, duration: reply.duration)) }
            guard let count = reply.bytes, count >= 0, count <= 64 << 20, let png = try reader.bytes(count) else { return ended(busy: true) }
            return .made(.png(png))
        } catch let error as SystemCallError where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            helper.kill()
            _ = try? helper.reap()  // killed just now: reaped at once
            return .timedOut
        } catch {
            return ended(busy: true)
        }
    }

    private func checkOut() async throws(SystemCallError) -> HelperProcess {
        retireIdle()
        while true {
            if let ready = idle.popLast() { return ready.helper }
            if running < settings.size {
                running += 1
                do {
                    return try HelperProcess(settings.executable, settings.arguments)
                } catch {
                    running -= 1
                    throw error
                }
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// Returns a decoder to the pool (nil: it is gone), and wakes one request waiting for a decoder.
    private func checkIn(_ helper: HelperProcess?) {
        if let helper {
            idle.append(Idle(helper: helper, since: .now))
        } else {
            running -= 1
        }
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }

    /// Lets go of decoders idle nearly as long as they wait by themselves: one about to exit is not handed out.
    private func retireIdle() {
        let limit = Duration.seconds(settings.idleSeconds * 0.8)
        let (stale, fresh) = (idle.filter { $0.since.duration(to: .now) > limit }, idle.filter { $0.since.duration(to: .now) <= limit })
        idle = fresh
        running -= stale.count
        for old in stale {
            // Closing our end ends its input; it exits, and is reaped off this actor.
            DispatchQueue.global().async {
                old.helper.channel.shutdownWrite()
                _ = try? old.helper.reap()
            }
        }
    }
}
