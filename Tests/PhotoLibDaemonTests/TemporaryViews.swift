import Foundation
import Glibc
import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibSystem
import TestSupport

/// A library and a views directory side by side in a temporary directory, and a
/// `ViewMaintainer` over them: the linking executors tested without a daemon.
final class TemporaryViews {
    let root: String
    let maintainer: ViewMaintainer

    /// - Parameter directories: made below the root, in order (`lib` and `views` always).
    init(_ directories: [String]) throws {
        root = try makeTemporaryDirectory("photolibd-views")
        for directory in ["lib", "views"] + directories {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: false)
        }
        let logger = Logger(label: "test")
        let views = try Directory.open(path: root + "/views")
        maintainer = ViewMaintainer(
            viewsRoot: views, access: LibraryAccess(root: try Directory.open(path: root + "/lib")),
            derivatives: try DerivativeCatalog(viewsRoot: views, checks: [:], logger: logger), ownerUID: getuid(), logger: logger,
            paths: (library: root + "/lib", views: root + "/views"),
            staging: try CloneStaging.open(in: views, workers: 2), form: .links, pictures: FlatpakPicturesFolder(home: root, pictures: "Pictures"))
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }  // a leftover in /tmp is all a failure here costs
}
