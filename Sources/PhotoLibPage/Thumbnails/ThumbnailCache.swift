import CThumbnailNames
import Foundation
import PhotoLibCore
import PhotoLibSystem

/// Thumbnails through the freedesktop cache (`~/.cache/thumbnails/large`), shared with the desktop.
///
/// A cached thumbnail whose Thumb::MTime matches the file is served as it is
/// (a file manager's included); otherwise one is made and written there. A file
/// that cannot be thumbnailed is remembered for the life of the server and
/// logged once, so a hostile image costs one attempt, not one per scroll.
public actor ThumbnailCache {
    private let decoders: DecoderPool
    private let directory: String?
    private var failed: [[UInt8]: ThumbnailOutcome] = [:]
    /// True once a cache read or write failed and was logged: one line, not one per tile.
    private var cacheProblemLogged = false
    /// True once decoders could not be had and that was logged.
    private var decoderProblemLogged = false
    private let log: @Sendable (String) -> Void

    /// - Parameter cacheHome: `$XDG_CACHE_HOME` or `~/.cache`; nil keeps no cache on disk.
    public init(decoders: DecoderPool, cacheHome: String?, log: @escaping @Sendable (String) -> Void) {
        self.decoders = decoders
        self.log = log
        var usable: String?
        if let cacheHome {
            let directory = ThumbnailCacheName.directory(cacheHome: cacheHome, size: .large)
            do {
                try PrivateFiles.makeDirectory(directory)
                usable = directory
            } catch {
                log("The thumbnail cache \(directory) cannot be used (\(error)); thumbnails are made each time, and kept nowhere.")
            }
        }
        directory = usable
    }

    /// The PNG thumbnail of the file at `path` (modified at `mtime`, in seconds), or why there is none.
    public func thumbnail(path: [UInt8], mtime: Int64, isVideo: Bool = false) async -> ThumbnailOutcome {
        let key = path + [0] + Array(String(mtime).utf8)
        if let known = failed[key] { return known }
        var problem = [CChar](repeating: 0, count: 512)
        guard photolib_names_ready(&problem, problem.count) == 1 else {
            return .failed("thumbnails cannot be named: " + String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let uriPointer = photolib_names_file_uri((path + [0]).map { CChar(bitPattern: $0) }) else { return .failed("the path is not absolute") }
        let uri = String(cString: uriPointer)
        photolib_names_free(uriPointer)
        var digest = [CChar](repeating: 0, count: 33)
        photolib_names_md5(uri, &digest)
        let name = String(decoding: digest.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let cached = directory.map { $0 + "/" + name + ".png" }
        if let cached {
            do {
                // One read: the thumbnail is checked (its Thumb::MTime) on the bytes that would be sent.
                if let bytes = try PrivateFiles.read(cached, limit: 8 << 20),
                   PNGText.value(of: "Thumb::MTime", in: bytes).flatMap({ Int64($0) }) == mtime {
                    return .png(bytes)
                }
            } catch {
                // Not "absent": the cache is there but cannot be read. Made again below, and said once.
                cacheProblem("Cannot read the cached thumbnail \(cached): \(error)")
            }
        }
        let made = await decoders.make(path: path, uri: uri, mtime: mtime, isVideo: isVideo)
        switch made {
        case .png(let bytes):
            if let cached {
                do {
                    try PrivateFiles.write(cached, bytes)
                } catch {
                    cacheProblem("Cannot write the thumbnail \(cached): \(error)")
                }
            }
        case .failed(let reason, _):
            failed[key] = made
            log("No thumbnail for \(EscapedName.escape(path)): \(reason); the page shows a placeholder.")
        case .unavailable(let reason):
            // Not this file's fault: asked again next time, and said once.
            if !decoderProblemLogged {
                decoderProblemLogged = true
                log("No thumbnails can be made now: \(reason). Later failures are not logged.")
            }
        }
        return made
    }

    private func cacheProblem(_ what: String) {
        guard !cacheProblemLogged else { return }
        cacheProblemLogged = true
        log("\(what); thumbnails are made again as needed (check the permissions of the thumbnail cache). Later failures are not logged.")
    }
}
