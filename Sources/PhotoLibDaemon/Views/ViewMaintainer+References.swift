import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Views of references (a library on a network filesystem, the views on the local disk) for apps that
// read their view themselves: the references kept apart, and served onto the view directory through FUSE.
extension ViewMaintainer {
    /// Where the views are references, the hidden directory in the views that holds the references of
    /// each app that reads its view itself (only the owner enters it): its view directory is where
    /// photolibd-viewfs serves them.
    static let referencesDirectory = FileName(".references")!

    /// Whether the app reads its view itself from a FUSE view of its references: views of references,
    /// not a Flatpak app's Pictures folder, not denied, and FUSE usable for its uid (`referenceViewForm`).
    func servesReferences(_ app: AppRecord) -> Bool {
        guard form == .references, !app.flatpakPictures, app.heldLayout != .empty else { return false }
        return mirrors.referenceViewForm(of: app.id, ownUID: app.ownUID(ownerUID: ownerUID)) == .mirror
    }

    /// Whether the app's view is a FUSE view shown as its own uid's alone (`--reader`): no other uid,
    /// the owner included, enters it, so the access report cannot watch its opens.
    func servedToItsUIDAlone(_ app: AppRecord) -> Bool {
        servesReferences(app) && app.ownUID(ownerUID: ownerUID) != nil
    }

    /// Each app's view directory, by app, for the access report's open watches: but a view served to
    /// an app's own uid alone (`servedToItsUIDAlone`), which the owner cannot enter, so cannot watch.
    func watchablePaths(_ apps: [AppRecord]) -> [AppID: String] {
        Dictionary(apps.filter { !servedToItsUIDAlone($0) }.map { ($0.id, $0.viewPath(views: paths.views, pictures: pictures)) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// Mounts the FUSE view of an app's references on its view directory unless it is mounted; what
    /// the directory held before (copies of an earlier run) is removed first, not hidden beneath.
    func keepReferencesMounted(_ app: AppRecord, tx: StoreTransaction, report: inout Report) throws {
        guard !mirrors.isMounted(app.id) else { return }
        do {
            let directory = try Directory.open(app.viewName, in: viewsRoot)
            defer { directory.close() }
            try sync(directory, app: app, wanted: [:], sources: [:], tx: tx, report: &report, picturesFolder: false)
        } catch let error as SystemCallError where error.errno == ENOTCONN {
            logger.notice("The view of \(app.id) is a mount a killed FUSE server left; the new server unmounts it.")
        }
        let name = String(decoding: app.viewName.bytes, as: UTF8.self)
        try mirrors.mount(app.id, source: paths.views + "/" + String(decoding: Self.referencesDirectory.bytes, as: UTF8.self) + "/" + name,
                          mountPoint: paths.views + "/" + name, inbox: nil, library: paths.library, reader: app.ownUID(ownerUID: ownerUID))
        if servedToItsUIDAlone(app) {
            logger.info("The view of \(app.id) is shown to uid \(app.uid) alone, which you cannot enter: what it opens there is not in the access report.")
        }
    }

    /// An app whose view is no longer served from references: unmounted, and its references removed.
    func leaveReferences(_ app: AppRecord) throws {
        mirrors.unmount(app.id)
        guard try Directory.status(of: Self.referencesDirectory, in: viewsRoot) != nil else { return }
        let references = try Directory.open(Self.referencesDirectory, in: viewsRoot)
        defer { references.close() }
        if try Directory.status(of: app.viewName, in: references) != nil { try Directory.removeTree(app.viewName, in: references) }
    }
}
