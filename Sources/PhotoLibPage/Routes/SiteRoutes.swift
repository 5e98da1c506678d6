import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PhotoLibCore
import PhotoLibSystem

/// The page's own files: `/` and what it loads, read from the site directory.
///
/// Only names found there when the server starts are served, each by its
/// exact path: no request path is ever joined to a directory.
enum SiteRoutes {
    static let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "svg": "image/svg+xml", "png": "image/png"]

    /// Throws, saying where, when the site directory cannot be read: a page server with no page is no use.
    static func add(to router: Router<BasicRequestContext>, _ page: PageContext) throws {
        var files: [String: String] = ["/": "index.html"]
        for folder in ["", "js/"] {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: page.site + "/" + folder)
            } catch {
                throw PhotoLibError.invalidParameter(name: "site", reason: "the page's files in \(page.site)/\(folder) cannot be read (\(error)); reinstall photolibd or pass --site DIR")
            }
            for name in names where types[(name as NSString).pathExtension] != nil {
                files["/" + folder + name] = folder + name
            }
        }
        for (route, file) in files {
            let type = types[(file as NSString).pathExtension] ?? "application/octet-stream"
            let path = page.site + "/" + file
            router.get(RouterPath(route)) { _, _ in
                guard let bytes = try PrivateFiles.read(path, limit: 4 << 20) else {
                    return PageServer.problem(.notFound, "The page's file \(file) is missing; reinstall photolibd.")
                }
                return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
            }
        }
    }
}
