import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// The library as the grid shows it: pages of assets, newest first, and their thumbnails.
///
/// The grid asks for a page of assets as it scrolls, and for each tile's
/// thumbnail as the tile comes into view; the server keeps, of the library,
/// only the paths of the assets it has listed (to find a thumbnail's file by
/// the asset's ID), never a listing of its own.
enum AssetRoutes {
    struct Tile: Encodable {
        let id: String
        let name: String
        let album: String
        let path: String
        let mediaType: String
        let mtime: Int64
        let size: Int64
        /// Where it was taken ("Rennes, Brittany Region, France"): the person's own page only.
        let place: String?
        /// For a pick whose app said which types it reads (`accepts`): "jpeg" when the app will get a
        /// JPEG made from it, "unreadable" when it can get none (the sheet will not let it be chosen).
        let format: String?
    }

    /// What `FormatDecision` says of a file named `name` for an app reading `accepts`, as a tile says it.
    static func format(of name: String, accepts: [String]) -> String? {
        switch FormatDecision.decide(name: name, accepts: accepts) {
        case .original: nil
        case .jpeg: "jpeg"
        case .unreadable: "unreadable"
        }
    }

    static func add(to router: Router<BasicRequestContext>, _ page: PageContext, book: PathBook) {
        router.get("/api/assets") { request, _ in
            let query = request.uri.queryParameters
            let params = AssetsParams(
                album: query.get("album").flatMap { $0.isEmpty ? nil : $0 }, type: query.get("type").flatMap { $0.isEmpty ? nil : $0 },
                search: query.get("search").flatMap { $0.isEmpty ? nil : $0 }, order: "newest",
                offset: query.get("offset", as: Int.self) ?? 0, limit: min(query.get("limit", as: Int.self) ?? 120, 500),
                takenFrom: query.get("takenFrom", as: Int64.self), takenTo: query.get("takenTo", as: Int64.self))
            // A pick's sheet says which types its app reads, comma-separated.
            let accepts = (query.get("accepts") ?? "").split(separator: ",").map(String.init).filter(FileFormat.isPattern)
            return try await AppRoutes.answer(page) {
                let result = try await page.daemon.call(.assets, params, returning: AssetsResult.self)
                await book.remember(result.assets)
                let tiles = result.assets.map { asset in
                    let slash = asset.path.lastIndex(of: "/")
                    let name = slash.map { String(asset.path[asset.path.index(after: $0)...]) } ?? asset.path
                    return Tile(id: asset.id, name: name, album: slash.map { String(asset.path[..<$0]) } ?? "", path: asset.path,
                                mediaType: asset.mediaType, mtime: asset.mtime, size: asset.size, place: asset.place,
                                format: format(of: name, accepts: accepts))
                }
                struct Page: Encodable { let assets: [Tile]; let total: Int }
                return try PageServer.json(Page(assets: tiles, total: result.total ?? tiles.count))
            }
        }
        // The Albums view: each album's count and cover (whose thumbnail the page may then ask for).
        router.get("/api/albums/summaries") { _, _ in
            try await AppRoutes.answer(page) {
                let result = try await page.daemon.call(.albums, AlbumsParams(summaries: true), returning: AlbumsResult.self)
                await book.remember((result.summaries ?? []).compactMap(\.cover))
                struct Card: Encodable { let path: String; let name: String; let assets: Int; let cover: String? }
                let cards = (result.summaries ?? []).map { summary in
                    Card(path: summary.path, name: summary.path.split(separator: "/").last.map(String.init) ?? summary.path,
                         assets: summary.assets, cover: summary.cover?.id)
                }
                return try PageServer.json(["albums": cards])
            }
        }
        // A jump to any month: every month with photos, newest first.
        router.get("/api/timeline") { _, _ in
            try await AppRoutes.answer(page) {
                try PageServer.json(try await page.daemon.call(.timeline, NoParams(), returning: TimelineResult.self))
            }
        }
        router.get("/thumbs/:id") { _, context in
            let id = try context.parameters.require("id")
            guard let file = await book.file(of: id) else {
                return PageServer.problem(.notFound, "No asset \(id) has been listed on this page; reload it.")
            }
            let mtime = file.mtime ?? PathInspection.status(String(decoding: file.path, as: UTF8.self)).map(\.modificationTime) ?? 0
            switch await page.thumbnails.thumbnail(path: file.path, mtime: mtime / 1_000_000_000, isVideo: file.mediaType == "video") {
            case .png(let bytes):
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=3600"],
                                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            case .failed(_, let duration):
                return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=3600"],
                                body: .init(byteBuffer: ByteBuffer(string: Placeholder.svg(file.mediaType, duration: duration))))
            case .unavailable:
                // Not the file's fault: the browser asks again next time.
                return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: Placeholder.svg(file.mediaType))))
            }
        }
    }
}

/// The file behind each asset ID the page has listed.
actor PathBook {
    struct File {
        let path: [UInt8]
        /// Nanoseconds, when the listing said; else read from the file when its thumbnail is asked for.
        let mtime: Int64?
        let mediaType: String
    }

    private let library: [UInt8]
    private var files: [String: File] = [:]

    init(library: String) {
        self.library = Array(library.utf8)
    }

    func remember(_ assets: [AssetInfo]) {
        if files.count > 500_000 { files.removeAll() }  // a bound, far above any page's need
        for asset in assets {
            guard let relative = EscapedName.unescape(asset.path) else { continue }
            files[asset.id] = File(path: library + [0x2F] + relative, mtime: asset.mtime, mediaType: asset.mediaType)
        }
    }

    /// Files named by a report: an asset ID and its escaped path.
    func remember(_ entries: [(id: String, path: String)]) {
        for (id, path) in entries where files[id] == nil {
            guard let relative = EscapedName.unescape(path) else { continue }
            // A report names no type: the file's extension tells, by the library's default rule.
            let name = relative.split(separator: 0x2F).last.flatMap { FileName(bytes: Array($0)) }
            let type = name.flatMap { AssetNamePolicy.standard.mediaType(of: $0) } ?? .image
            files[id] = File(path: library + [0x2F] + relative, mtime: nil, mediaType: type.rawValue)
        }
    }

    func file(of id: String) -> File? { files[id] }
}

/// What a tile shows when no thumbnail can be made.
enum Placeholder {
    /// A labelled tile: "Video" (and how long, when known) or "No preview".
    static func svg(_ mediaType: String, duration: Double? = nil) -> String {
        let label = mediaType == "video" ? "Video" : "No preview"
        // Digits and a colon only: nothing from the file reaches the SVG's text.
        let length = duration.map { """
            <text x="128" y="164" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#555">\(MovieDuration.words($0))</text>
            """ } ?? ""
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">\
            <rect width="256" height="256" fill="#d9dce1"/><text x="128" y="134" font-family="sans-serif" font-size="22" \
            text-anchor="middle" fill="#555">\(label)</text>\(length)</svg>
            """
    }
}
