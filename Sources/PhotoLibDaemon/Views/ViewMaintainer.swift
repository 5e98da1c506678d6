import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

/// Makes each app's view directory hold exactly the entries it should: hard
/// links, or in `clones` mode reflink clones (`ViewEntryForm`).
///
/// Views are derived state: the database says what an app may see; this type
/// brings the directory there, either fully (at start, after a rescan or an
/// authorization change: list, diff, act) or incrementally (one batch of
/// `ViewChange`s: a few links per changed asset). Both end in the same state,
/// so crash recovery is ordinary operation.
final class ViewMaintainer {
    typealias LinkSource = PhotoLibCore.LinkSource
    typealias LinkOutcome = PhotoLibCore.LinkOutcome
    typealias Report = ViewReconcileReport

    /// The views' directory, where each app's view is made.
    let viewsRoot: FileDescriptor
    /// The library, through the descriptors every link is made from.
    let access: LibraryAccess
    /// The daemon's uid: the library's owner.
    let ownerUID: UInt32
    let logger: Logger
    /// The library's and the views' paths, for messages only.
    let paths: (library: String, views: String)
    /// Where clones and copies are made before each is renamed into its view.
    let staging: CloneStaging
    /// The form decided at start from the setting and the views' filesystem.
    let form: ViewEntryForm
    /// Where Flatpak apps' Pictures folders are, in the owner's home.
    let pictures: FlatpakPicturesFolder
    /// Derivatives without location, for apps whose policy is `none`.
    let derivatives: DerivativeCatalog
    /// Refusals the kernel gave while linking, by asset row, for the engine to record.
    var learnedRefusals: [Int64: LinkRefusal] = [:]
    /// Set while a network library's server does not answer (`LibraryReach`): references are not
    /// placed meanwhile (`defersReferences`), so no view work calls into the mount.
    var libraryUnreachable = false
    /// Apps whose view is their Flatpak Pictures folder, as last opened: their entries are
    /// clones, or copies where the filesystem cannot clone, never links (SPEC §11).
    var copyingApps: Set<AppID> = []
    /// An app's open inbox, where what a limited Flatpak app saves in its Pictures folder is taken in.
    var inboxOf: (AppID) -> FileDescriptor? = { _ in nil }
    /// ...and its path, for the FUSE server of a mirrored Pictures folder, which saves there itself.
    var inboxPathOf: (AppRecord) -> String? = { _ in nil }
    /// Pictures folders served through FUSE from a link view (`PicturesFolderForm.mirror`).
    let mirrors: ViewMirrors
    /// Warns when an app uid could open the library itself, going around its view; judged after every full reconcile.
    let reachWarning: LibraryReachWarning
    /// Run on a flight's thread before its links (`LinkFlight`): a test's stand-in for a disk slow to
    /// take them. Nil in the daemon.
    var beforeFlight: (@Sendable () -> Void)?
    /// How many flights were landed before their links were made, so that a thread waited for
    /// them (`LinkFlight.wait`): none while every change comes through `Engine.readyForChange`.
    var landingsThatWaited = 0

    init(viewsRoot: FileDescriptor, access: LibraryAccess, derivatives: DerivativeCatalog, ownerUID: UInt32, logger: Logger,
         paths: (library: String, views: String), staging: CloneStaging, form: ViewEntryForm, pictures: FlatpakPicturesFolder,
         board: StatusBoard = StatusBoard(), fuse: Bool = true) {
        self.viewsRoot = viewsRoot
        self.access = access
        self.ownerUID = ownerUID
        self.logger = logger
        self.paths = paths
        self.staging = staging
        self.form = form
        self.pictures = pictures
        self.derivatives = derivatives
        // With references, an app that reads its view itself holds copies: a copy without location is kept for the next.
        if form == .references { derivatives.copied = true }
        reachWarning = LibraryReachWarning(library: paths.library, logger: logger)
        mirrors = ViewMirrors(logger: logger, board: board,
                              probed: fuse ? FuseAvailability.probe() : (.unavailable(reason: "fuse_views is false in the configuration"), nil),
                              views: paths.views)
        if form == .references { mirrors.libraryOutOfReach = "the library is on a network filesystem, which no clone reaches" }
        // Before any Pictures folder is looked into: a killed daemon's mounts answer ENOTCONN.
        mirrors.recoverStale(home: pictures.home)
    }

    var home: String { pictures.home }

    /// The file an app's entry for this member links: the original, or for
    /// an app that may not see locations, the derivative when the original
    /// holds one; nil when the app gets no entry for it now (withheld).
    func resolve(_ source: LinkSource, file: FileFacts, for app: AppRecord) -> LinkSource? {
        switch self.source(ofMember: source.rowID, file: file, at: source.album.appending(source.name), policy: app.location) {
        case .original: return source
        case .derivative(let inode, let size): return LinkSource(derivativeOf: source.rowID, inode: inode, size: size, original: file)
        case .withheld, .needsCheck: return nil
        }
    }

    /// Which file an entry for this member (at `path` in the library) links for an app with `policy`:
    /// the one answer a view and a pick share (`EntrySource.decide`, deriving a copy first where needed).
    func source(ofMember rowID: Int64, file: FileFacts, at path: RelativePath, policy: LocationPolicy) -> EntrySource {
        guard policy == .none, let name = path.lastComponent else { return .original }
        // While a network library's server does not answer, only what is known: a look would wait for it
        // (a member that needs one gets no entry until the return, which reconciles every view).
        if libraryUnreachable { return derivatives.knownSource(policy: policy, rowID: rowID, file: file, name: name) }
        return derivatives.source(policy: policy, rowID: rowID, file: file, album: access.directory(path.parent ?? .root), name: name)
    }

    // MARK: Whole views

    /// How an app's entries are made.
    struct EntryMaking {
        /// Where clones (or copies) are made; nil for hard links and references.
        let staging: CloneStaging?
        /// Copies where the filesystem cannot clone.
        let orCopy: Bool
        /// References (`ViewEntryForm.references`), which photolibd-viewfs serves.
        var references = false
        var form: ViewEntryForm { references ? .references : staging == nil ? .links : .clones }
    }

    func making(for app: AppID) -> EntryMaking {
        if copyingApps.contains(app) { return EntryMaking(staging: staging, orCopy: true) }
        if form == .references {
            // Served through FUSE (a mirrored Pictures folder, or a view mounted on its directory): references.
            // Anything else reads its entries itself, and could not follow one: copies (`referenceViewForm` says why).
            guard mirrors.knownForm(of: app) == .mirror else { return EntryMaking(staging: staging, orCopy: true) }
            return EntryMaking(staging: nil, orCopy: false, references: true)
        }
        return EntryMaking(staging: form == .clones ? staging : nil, orCopy: false)
    }

    /// Opens (creating) an app's view directory: its random name in the views, or its
    /// Flatpak Pictures folder in the home, every step opened without following a link
    /// (the app may put one there: `~/.var/app/APP` is its own to write). A mirrored Pictures
    /// folder's view is under the views too: the folder shows it through FUSE.
    func openView(_ app: AppRecord) throws -> ViewDirectories {
        let inPictures = app.flatpakPictures && !isMirrored(app)
        if inPictures {
            copyingApps.insert(app.id)
            derivatives.copied = true
        } else {
            copyingApps.remove(app.id)
        }
        guard inPictures else {
            try Directory.makeDirectory(app.viewName, in: viewsRoot, mode: 0o700)
            guard servesReferences(app) else { return ViewDirectories(root: try Directory.open(app.viewName, in: viewsRoot)) }
            // Its view directory is where its FUSE view is mounted; the references it serves are kept apart, the owner's alone.
            try Directory.makeDirectory(Self.referencesDirectory, in: viewsRoot, mode: 0o700)
            let references = try Directory.open(Self.referencesDirectory, in: viewsRoot)
            defer { references.close() }
            try Directory.makeDirectory(app.viewName, in: references, mode: 0o700)
            return ViewDirectories(root: try Directory.open(app.viewName, in: references))
        }
        return ViewDirectories(root: try openPicturesFolder(app))
    }

    /// Whether the app's Pictures folder is a FUSE mirror of its view: a limited Flatpak app's,
    /// where the folder's filesystem cannot clone and FUSE can be used (`ViewMirrors.form`).
    func isMirrored(_ app: AppRecord) -> Bool {
        guard app.flatpakPictures, app.heldLayout == .limited else { return false }
        return mirrors.form(of: app.id) { try openPicturesFolder(app, parentOnly: true) } == .mirror
    }

    /// The app's Pictures folder (or with `parentOnly`, `~/.var/app/APP`), made where missing.
    func openPicturesFolder(_ app: AppRecord, parentOnly: Bool = false) throws -> FileDescriptor {
        var directory = try Directory.open(path: home)
        do {
            let components = pictures.components(of: app.id)
            for (step, component) in components.enumerated() where !parentOnly || step < components.count - 1 {
                let name = FileName(component)!
                // Flatpak makes ~/.var/app/APP 0755 itself; the Pictures folder is the owner's alone.
                try Directory.makeDirectory(name, in: directory, mode: step == components.count - 1 ? 0o700 : 0o755)
                let next = try Directory.open(name, in: directory)
                directory.close()
                directory = next
            }
        } catch {
            directory.close()
            throw error
        }
        return directory
    }

    /// Whether the app runs under a uid of its own (not the owner's, not root's, who can read everything anyway).
    func hasOwnUID(_ app: AppRecord) -> Bool {
        app.ownUID(ownerUID: ownerUID) != nil
    }

    /// Lets the app's uid, and no one else, read and enter a directory of its
    /// view (SPEC §4). An app running as the owner needs no ACL: the
    /// directory stays 0700, and a sandbox keeps such apps apart.
    func restrictAccess(_ directory: FileDescriptor, to app: AppRecord) {
        do {
            if !hasOwnUID(app) {
                try AccessControl.clear(directory)
            } else {
                try AccessControl.apply(ViewAccessList(reader: app.uid), to: directory)
            }
        } catch {
            logger.warning("Cannot set the ACL that lets uid \(app.uid) into the view of \(app.id): \(error). The views directory's filesystem must support POSIX ACLs for apps with their own uid.")
        }
    }

    /// Removes an app's view directory entirely; a Flatpak Pictures folder is only emptied of
    /// photolibd's entries (what the app saved there stays, the app's own).
    func removeView(_ app: AppRecord, index: LibraryIndex, store: Store) throws {
        guard app.flatpakPictures else {
            if form == .references {
                mirrors.forget(app.id)  // unmounted before its directory goes
                try leaveReferences(app)
            }
            return try Directory.removeTree(app.viewName, in: viewsRoot)
        }
        var emptied = app
        emptied.readWrite = .denied
        _ = try reconcile(emptied, index: index, store: store, libraryAvailable: false)  // unmounts a mirror too
        copyingApps.remove(app.id)
        mirrors.forget(app.id)
    }

    /// Removes view directories of apps that no longer exist, and views still
    /// named by app ID (from before view names were random).
    func removeViews(except views: Set<FileName>) throws {
        if form == .references, try Directory.status(of: Self.referencesDirectory, in: viewsRoot) != nil {
            let references = try Directory.open(Self.referencesDirectory, in: viewsRoot)
            defer { references.close() }
            for entry in try Directory.list(references) where !views.contains(entry.name) { try Directory.removeTree(entry.name, in: references) }
        }
        for entry in try Directory.list(viewsRoot) where !entry.name.isHidden && !views.contains(entry.name) {
            let isOldView = AppID(String(decoding: entry.name.bytes, as: UTF8.self)) != nil
            guard ViewName.isViewName(entry.name) || isOldView else { continue }  // not photolibd's: leave it
            logger.info("Removing the view of an app that is no longer registered (or was renamed): \(entry.name)")
            try Directory.removeTree(entry.name, in: viewsRoot)
        }
    }

    /// Brings one app's whole view to the desired state. `trust`: the directories of a full view a
    /// start may take as right by their stamps (`ViewTrust`), neither read nor compared.
    func reconcile(_ app: AppRecord, index: LibraryIndex, store: Store, libraryAvailable: Bool, trust: ViewTrust? = nil) throws -> Report {
        // One read snapshot for the whole view: consistent, and far cheaper
        // than a transaction per album.
        try store.read { tx in try reconcile(app, index: index, tx: tx, libraryAvailable: libraryAvailable, trust: trust) }
    }

    private func reconcile(_ app: AppRecord, index: LibraryIndex, tx: StoreTransaction, libraryAvailable: Bool,
                           trust: ViewTrust? = nil) throws -> Report {
        let mirrored = isMirrored(app)
        let served = servesReferences(app)
        // Unmounted first: the folder beneath is what is reconciled now (emptied of photolibd's entries).
        if !mirrored, app.flatpakPictures { try leaveMirror(app) }
        if !served, form == .references, !app.flatpakPictures { try leaveReferences(app) }
        let view = try openView(app)
        // References stay the owner's alone: the app reads them through its FUSE view.
        if !served { restrictAccess(view.root, to: app) }
        let form = making(for: app.id).form
        var report = Report()
        switch libraryAvailable ? app.heldLayout : .empty {
        case .empty:
            try sync(view.root, app: app, wanted: [:], sources: [:], tx: tx, report: &report)
        case .limited:
            let policy = try tx.viewPolicy(of: app, as: .limited)
            var wanted: [FileName: ViewDiff<FileName>.Wanted] = [:]
            var sources: [FileName: LinkSource] = [:]
            for record in try tx.visibleAssets(limitedApp: app.id) {
                guard let located = index.locate(record) else { continue }
                for entry in policy.entries(located) {
                    guard let name = entry.path.lastComponent, let original = LinkSource(entry.member),
                          let source = resolve(original, file: entry.member.file, for: app) else { continue }
                    wanted[name] = .file(source.wanted(form))
                    sources[name] = source
                }
            }
            WorkProgress.current?.begin("view", total: sources.count)
            try sync(view.root, app: app, wanted: wanted, sources: sources, tx: tx, report: &report)
        case .full:
            // The member count is one more query, made only for a request that reports progress.
            if let progress = WorkProgress.current { progress.begin("view", total: try tx.memberCount()) }
            var pending: [(AlbumTree.ID, FileDescriptor, RelativePath)] = [(AlbumTree.rootID, try Directory.duplicate(view.root), .root)]
            while let (album, directory, path) = pending.popLast() {
                defer { directory.close() }
                // Between albums, what is linked is consistent: a stop leaves the rest to the next start's reconcile.
                do {
                    try StopRequest.checkpoint()
                } catch {
                    for (_, left, _) in pending { left.close() }
                    throw error
                }
                let children = index.albums.children(of: album)
                if let trust, trust.trusts(album, now: try Self.stamp(of: directory)) {
                    // As the clean stop left it, its album unchanged since: its entries and its ACL are right.
                    report.trustedDirectories += 1
                } else {
                    // Directories made before the app had its own uid lack the inherited ACL.
                    // For an app running as the owner, the view's own 0700 is enough.
                    // Every member file the owner can share, at its library path:
                    // `ViewPolicy`'s full layout, read album by album from the index.
                    if !path.isRoot, hasOwnUID(app), !served { restrictAccess(directory, to: app) }
                    let files = try tx.indexedFiles(inAlbum: album)
                    var wanted: [FileName: ViewDiff<FileName>.Wanted] = [:]
                    var sources: [FileName: LinkSource] = [:]
                    // Sized once: grown entry by entry, each dictionary hashed every name again at each doubling.
                    wanted.reserveCapacity(files.count + children.count)
                    sources.reserveCapacity(files.count)
                    for (name, indexed) in ViewPolicy.fullViewFiles(inAlbum: files) {
                        let original = LinkSource(album: path, name: name, rowID: indexed.rowID, file: indexed.file)
                        guard let source = resolve(original, file: indexed.file, for: app) else { continue }
                        wanted[name] = .file(source.wanted(form))
                        sources[name] = source
                    }
                    for name in children.keys { wanted[name] = .directory }
                    try sync(directory, app: app, wanted: wanted, sources: sources, tx: tx, report: &report)
                }
                for (name, child) in children {
                    do {
                        pending.append((child, try Directory.open(name, in: directory), path.appending(name)))
                    } catch {
                        // sync made it a directory just now: failing to open it is a real problem, not an absence.
                        report.refused += 1
                        logger.warning("Cannot open \(path.appending(name)) in the view of \(app.id): \(error); what it should hold is not linked until the next reconcile.")
                    }
                }
            }
        }
        if mirrored || served {
            do {
                if mirrored { try keepMirrorMounted(app, tx: tx, report: &report) } else { try keepReferencesMounted(app, tx: tx, report: &report) }
            } catch let error as PhotoLibError where error != .stopping {
                // Its form is copies now (`ViewMirrors.mount`): the folder is made to hold them at once.
                return try reconcile(app, index: index, tx: tx, libraryAvailable: libraryAvailable)
            }
        }
        if report.linked + report.unlinked + report.refused > 0 {
            logger.info("Reconciled the view of \(app.id): \(report.linked) linked, \(report.unlinked) removed, \(report.refused) refused.")
        }
        if report.trustedDirectories > 0 {
            logger.info("The view of \(app.id): \(report.trustedDirectories) directories as the last clean stop left them, not read again.")
        }
        return report
    }

    /// Mounts the app's mirror unless it is mounted. What the folder itself held before (copies of
    /// an earlier run, what the app saved while photolibd was stopped) is settled first, as for any
    /// Pictures folder: under the mount it would be hidden from the app, and never taken in.
    private func keepMirrorMounted(_ app: AppRecord, tx: StoreTransaction, report: inout Report) throws {
        guard !mirrors.isMounted(app.id) else { return }
        do {
            let folder = try openPicturesFolder(app)
            defer { folder.close() }
            try sync(folder, app: app, wanted: [:], sources: [:], tx: tx, report: &report, picturesFolder: true)
        } catch let error as SystemCallError where error.errno == ENOTCONN {
            // A mount a killed server left (this process could not unmount it: no_new_privs); the
            // server unmounts it before it mounts, and nothing could be saved beneath it meanwhile.
            logger.notice("The Pictures folder of \(app.id) is a mount a killed FUSE server left; the new server unmounts it.")
        }
        try mirrors.mount(app.id, source: paths.views + "/" + String(decoding: app.viewName.bytes, as: UTF8.self),
                          mountPoint: pictures.path(of: app.id), inbox: inboxPathOf(app), library: form == .references ? paths.library : nil)
    }

    /// An app whose Pictures folder is no longer a mirror: unmounted, and its link view removed.
    private func leaveMirror(_ app: AppRecord) throws {
        mirrors.unmount(app.id)
        if try Directory.status(of: app.viewName, in: viewsRoot) != nil { try Directory.removeTree(app.viewName, in: viewsRoot) }
    }

    /// Diffs one directory against what it should hold, and acts.
    /// `picturesFolder`: the directory is the app's own Pictures folder (what it saved there is kept or taken in).
    func sync(
        _ directory: FileDescriptor, app: AppRecord, wanted: [FileName: ViewDiff<FileName>.Wanted],
        sources: [FileName: LinkSource], tx: StoreTransaction, report: inout Report, picturesFolder: Bool? = nil
    ) throws {
        let form = making(for: app.id).form
        var present: [FileName: ViewDiff<FileName>.Present] = [:]
        let entries = try Directory.list(directory)
        present.reserveCapacity(entries.count)
        // A clone is judged by its content stamp and link count too: each is looked at, on every core.
        let looks = form == .clones ? look(at: entries.filter { $0.kind == .regular }.map(\.name), in: directory) : [:]
        for entry in entries {
            switch entry.kind {
            case .regular where form == .clones:
                guard let looked = looks[entry.name] else { continue }
                let status = try looked.get()
                guard let status else { continue }  // gone since listed
                present[entry.name] = status.kind == .regular ? .file(status.presentFile) : .other
            case .regular: present[entry.name] = .file(PresentFile(inode: entry.inode))
            case .directory: present[entry.name] = .directory
            case .unknown:
                let status = try Directory.status(of: entry.name, in: directory)
                switch status?.kind {
                case .regular: present[entry.name] = .file(status!.presentFile)
                case .symlink where form == .references:
                    present[entry.name] = .file(PresentFile(inode: status!.inode, target: try Directory.readLink(entry.name, in: directory)))
                case .directory: present[entry.name] = .directory
                default: present[entry.name] = .other
                }
            case .symlink where form == .references:
                present[entry.name] = .file(PresentFile(inode: entry.inode, target: try Directory.readLink(entry.name, in: directory)))
            case .symlink, .other: present[entry.name] = .other
            }
        }
        var diff = ViewDiff(present: present, wanted: wanted)
        if picturesFolder ?? (app.flatpakPictures && !isMirrored(app)) { try keepWhatTheAppSaved(&diff, in: directory, app: app, present: present, wanted: wanted, tx: tx) }
        for name in diff.removeDirectories {
            try Directory.removeTree(name, in: directory)
            report.unlinked += 1
        }
        // An entry that is relinked (another inode or version now) is replaced in place
        // by `link`, never unlinked first: an app finds it old or new, never missing.
        let relinked = Set(diff.linkFiles)
        for name in diff.unlinkFiles where !relinked.contains(name) {
            try Directory.unlink(name, in: directory)
            report.unlinked += 1
        }
        for name in diff.makeDirectories {
            try Directory.makeDirectory(name, in: directory, mode: ViewDirectories.subdirectoryMode)
        }
        let links = diff.linkFiles.compactMap { name in sources[name].map { (source: $0, entry: name) } }
        // Entries already right count as done at once; `link` counts the rest as it makes them.
        WorkProgress.current?.advance(by: max(0, sources.count - links.count))
        for outcome in try link(links, in: directory, app: app.id, knownStale: true) {
            switch outcome {
            case .linked: report.linked += 1
            case .skipped, .refused: report.refused += 1
            }
        }
    }

    /// `statx` of each name, on every core past `parallelLinkThreshold`: what each is now, nil when gone.
    private func look(at names: [FileName], in directory: FileDescriptor) -> [FileName: Result<FileStatus?, SystemCallError>] {
        let results = SharedAmongCores.map(count: names.count, threshold: Self.parallelLinkThreshold, maximumWorkers: Self.maximumWorkers,
                                           initial: Result<FileStatus?, SystemCallError>.success(nil)) { _, index in
            Result { () throws(SystemCallError) in try Directory.status(of: names[index], in: directory) }
        }
        return Dictionary(uniqueKeysWithValues: zip(names, results))
    }

    /// Refusals learned from the kernel since the last call, by member file row.
    func takeLearnedRefusals() -> [Int64: LinkRefusal] {
        defer { learnedRefusals = [:] }
        return learnedRefusals
    }
}
