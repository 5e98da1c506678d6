import PhotoLibCore
import PhotoLibSystem

/// The stamps of hard-link views' directories: recorded at a clean stop, so that the next start
/// reads only the directories that changed (`ViewStamps`, `ViewTrust`).
extension ViewMaintainer {
    /// The sentinel a clean stop makes anew in the views directory before it looks at any view:
    /// hidden, so never taken for a view (`removeViews`).
    static let stampSentinel = FileName(".photolibd-stopped")!

    /// Whether the app's view may be trusted by its stamps: a full view of hard links to the
    /// originals. Clones and copies are judged entry by entry (a clone's content can change under
    /// its name); FUSE views and Flatpak folders hold what the app saves; derivatives without
    /// location are decided afresh.
    func isStampable(_ app: AppRecord) -> Bool {
        app.heldLayout == .full && app.location == .precise && !app.flatpakPictures && !servesReferences(app)
            && making(for: app.id).form == .links
    }

    /// Makes the sentinel anew and returns its ctime: what every stamp's ctime must be before.
    func touchStampSentinel() throws -> Int64 {
        _ = try Directory.unlink(Self.stampSentinel, in: viewsRoot)
        let sentinel = try Directory.createFile(Self.stampSentinel, in: viewsRoot)
        defer { sentinel.close() }
        return try Directory.status(of: sentinel).changeTime
    }

    /// The stamp of each directory of the app's full view, by the album it mirrors: from the root
    /// down through `albums`. A directory missing (made at the next start) has none.
    func stamps(of app: AppRecord, albums: AlbumTree) throws -> [AlbumTree.ID: ViewStamp] {
        guard let root = try openExisting(app.viewName, in: viewsRoot) else { return [:] }
        var stamps: [AlbumTree.ID: ViewStamp] = [:]
        var pending: [(AlbumTree.ID, FileDescriptor)] = [(AlbumTree.rootID, root)]
        // Each directory is closed once looked at, and those still waiting when a look fails with it.
        defer { for (_, left) in pending { left.close() } }
        while let (album, directory) = pending.popLast() {
            defer { directory.close() }
            stamps[album] = ViewStamp(try Directory.status(of: directory))
            for (name, child) in albums.children(of: album) {
                guard let opened = try openExisting(name, in: directory) else { continue }
                pending.append((child, opened))
            }
        }
        return stamps
    }

    /// The stamp of an open view directory, as a start compares it with the one recorded.
    static func stamp(of directory: FileDescriptor) throws -> ViewStamp {
        ViewStamp(try Directory.status(of: directory))
    }

    private func openExisting(_ name: FileName, in parent: FileDescriptor) throws -> FileDescriptor? {
        do {
            return try Directory.open(name, in: parent)
        } catch where error.isNotFound {
            return nil
        }
    }
}

extension ViewStamp {
    init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, birthTime: status.birthTime, changeTime: status.changeTime,
                  modificationTime: status.modificationTime)
    }
}
