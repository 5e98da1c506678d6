import Logging
import PhotoLibCore
import PhotoLibSystem

/// Keeps the directories photolibd made above the views passable for app uids, and for nobody else.
///
/// A view is reachable only if its uid may enter every directory above it.
/// photolibd creates `~/.local/share/photolibd` (and `~/.local`, `~/.local/share`
/// when missing) 0700; each gets an access ACL naming every app uid with
/// `--x`: enough to reach a view by name, not to list anything. Directories
/// the person made are left alone; `photolibctl doctor` says which block an app.
struct PassageDirectories {
    let logger: Logger

    /// Applies the passage ACL for `appUIDs` to each of `paths` (outermost first).
    ///
    /// A path that is gone, not a directory, or not the owner's any more is
    /// skipped: someone replaced it, and photolibd does not open up what it did not make.
    func update(_ paths: [String], appUIDs: [UInt32], owner: UInt32) {
        let list = ViewAccessList.passage(appUIDs: appUIDs, owner: owner)
        for path in paths {
            do {
                let directory = try Directory.open(path: path)
                defer { directory.close() }
                let status = try Directory.status(of: directory)
                guard status.kind == .directory, status.owner == owner else {
                    logger.notice("\(path) is no longer photolibd's own directory; its permissions are left as they are.")
                    continue
                }
                if let list {
                    try AccessControl.apply(list, to: directory, inherited: false)
                } else {
                    try AccessControl.clear(directory)
                }
            } catch where error.isNotFound {
                continue
            } catch {
                logger.warning("Cannot let app uids pass through \(path): \(error). Apps with their own uid may not reach their views; photolibctl doctor shows which.")
            }
        }
    }
}
