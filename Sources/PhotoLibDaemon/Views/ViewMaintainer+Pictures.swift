import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// A Flatpak app's Pictures folder: what the app saved there is never removed (`SavedInPictures`).
extension ViewMaintainer {
    /// Narrows a diff of a Flatpak Pictures folder to photolibd's own entries, and takes
    /// what a limited app saved into its inbox (the inbox watcher imports it from there).
    func keepWhatTheAppSaved(_ diff: inout ViewDiff<FileName>, in directory: FileDescriptor, app: AppRecord,
                             present: [FileName: ViewDiff<FileName>.Present], wanted: [FileName: ViewDiff<FileName>.Wanted],
                             tx: StoreTransaction) throws {
        let sorting = try SavedInPictures.sort(unwanted: diff.unlinkFiles, present: present, wanted: wanted) {
            try tx.isMemberModificationTime($0)
        }
        let replaced = diff.unlinkFiles.filter { wanted[$0] != nil }
        diff.unlinkFiles = replaced + sorting.ours
        diff.removeDirectories = []  // the app's own folders
        guard !sorting.saved.isEmpty else { return }
        guard app.layout == .limited, let inbox = inboxOf(app.id) else {
            logger.info("Keeping \(sorting.saved.count) files \(app.id) saved in its Pictures folder there: it is not limited, so nothing it saves joins the library.")
            return
        }
        for name in sorting.saved {
            // Still being written (this look was made for another change in the folder): taken once
            // it is closed, which the folder's watch reports. Moved now, it would reach the inbox half
            // written and be refused there as a file that changed while it was copied.
            if FileCopy.isOpenForWriting(name, in: directory) == true {
                logger.debug("\(app.id) is still writing \(name) in its Pictures folder: taken in once it is closed.")
                continue
            }
            let placed = try Directory.renameToFreeName(name, in: directory, into: inbox) { attempt in
                attempt == 1 ? name : FileName(bytes: Array("\(attempt)-".utf8) + name.bytes) ?? name
            }
            if let placed { logger.notice("\(app.id) saved \(name) in its Pictures folder: taken in through its inbox as \(placed).") }
        }
    }

    /// The bytes an app's Pictures folder holds where its filesystem cannot clone (its entries are then
    /// copies); nil where it clones (they share the originals' blocks), and nil — "cannot tell", said in
    /// the log with the folder's error — when the folder or one of its entries cannot be looked at: never
    /// a total that leaves out what could not be read.
    func copyBytes(of app: AppRecord) -> Int64? {
        guard app.heldLayout != .empty, !isMirrored(app) else { return nil }
        do {
            let view = try openView(app)
            guard case .unsupported = try FileClone.probe(in: view.root) else { return nil }
            var total: Int64 = 0
            for entry in try Directory.list(view.root) where entry.kind == .regular || entry.kind == .unknown {
                // nil: removed since the listing, not there to count.
                if let status = try Directory.status(of: entry.name, in: view.root), status.kind == .regular, status.linkCount == 1 {
                    total += status.size
                }
            }
            return total
        } catch {
            logger.warning("Cannot tell what the Pictures folder of \(app.id) holds in copies: \(error). The page shows no size for it.")
            return nil
        }
    }
}
