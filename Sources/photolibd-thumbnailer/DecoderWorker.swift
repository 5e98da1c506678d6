import Foundation
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// The decoder process, started by the page server's `DecoderPool`.
///
/// It reads one request at a time on its standard input (a socket pair with
/// the page server) and answers on the same socket. It runs with its address
/// space limited, so a hostile image that asks for all the memory gets a
/// failed allocation here, and whatever crashes takes only this process.
enum DecoderWorker {
    /// Serves requests until end of input or `idleSeconds` without one; returns the exit status.
    static func run(memoryBytes: UInt64, idleSeconds: Double) -> Int32 {
        let channel = UnixStreamSocket(adopting: FileDescriptor(rawValue: 0))
        do {
            try ResourceLimit.limitAddressSpace(memoryBytes)
            try channel.setReceiveTimeout(seconds: idleSeconds)
        } catch {
            FileHandle.standardError.write(Data("photolibd-thumbnailer: \(error)\n".utf8))
            return 1
        }
        let thumbnailer: Thumbnailer
        do {
            thumbnailer = try Thumbnailer()
        } catch {
            FileHandle.standardError.write(Data("photolibd-thumbnailer: \(error)\n".utf8))
            return 1
        }
        var reader = StreamReader { try channel.read() }
        while true {
            let line: [UInt8]?
            do {
                line = try reader.line()
            } catch {
                // Idle long enough (EAGAIN), or the page server is gone: either way, done. Saying so
                // first tells the pool that a request which crossed this was never read.
                try? channel.write(DecoderLine.encode(DecodeReply(idle: true)))
                return 0
            }
            guard let line, let request = DecoderLine.decode(DecodeRequest.self, line), let path = request.pathBytes else { return 0 }
            let made = thumbnailer.make(path: path, uri: request.uri, mtime: request.mtime, isVideo: request.video)
            do {
                switch made {
                case .png(let png):
                    try channel.write(DecoderLine.encode(DecodeReply(bytes: png.count)) + png)
                case .failed(let reason):
                    // A video with no frame to show may still say how long it is.
                    var (reason, duration) = (reason, nil as Double?)
                    if request.video {
                        switch MovieHeaderFile.length(path: path) {
                        case .seconds(let seconds): duration = seconds
                        case .notSaid: break
                        case .unreadable(let why): reason += "; its length cannot be read either (\(why))"
                        }
                    }
                    try channel.write(DecoderLine.encode(DecodeReply(error: reason, duration: duration)))
                }
            } catch {
                return 0
            }
        }
    }
}
