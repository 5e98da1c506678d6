// A first scan, of an index that holds no file yet, written in parts as the walk's listings arrive.
extension IndexBatch {
    /// Makes the rows of the directories in `listed` (this part of a first scan's walk, each after
    /// the directory it is in, as `TreeListing` hands them on), from the probe's listings of them.
    ///
    /// Each album's row is made when its own listing arrives, not from its parent's: a parent's
    /// listing names sub-directories whose listings come in a later part. On an index that held no
    /// file when the scan began, nothing can have vanished, so no file in one part is matched with
    /// one in another, and each part may commit alone: the rows it leaves are a full scan's for the
    /// directories it holds. A listing whose parent has no album (which `TreeListing`'s order rules
    /// out) is not guessed at: the batch asks for a full scan (`Outcome.needsFullScan`).
    /// `scanned` hears each directory's count of files as it is done.
    ///
    /// `plans` may hold, by path, each listing's plan against nothing known (`DirectoryPlan.plan`
    /// with no files and no albums), made off the engine while the walk went on: an album this
    /// part makes knows nothing yet, so its plan is that one. The root's, whose row was there
    /// before, is made here.
    public mutating func scanListed(_ listed: [RelativePath], plans: [RelativePath: DirectoryPlan] = [:],
                                    scanned: (Int) -> Void = { _ in }) throws {
        for path in listed {
            // A stop rolls this part back; the parts before it stay, and the next start's full scan completes them.
            try checkpoint()
            guard let album = try albumOfListing(path) else {
                outcome.needsFullScan = true
                continue
            }
            let planned = album == AlbumTree.rootID ? nil : plans[path]
            let result = try reconcileDirectory(Pending(album: album, path: path), makesAlbums: false, planned: planned)
            held.files += result.vanished  // none on an empty index; held and settled as a full scan's are
            scanned(result.files)
        }
        try settleVanished()
        touchedAlbums.formUnion(try rows.takeAlbumsDueForPairing())
        try pairTouched()
    }

    /// The album row of a directory a first scan listed, made now below its parent's; nil when its
    /// parent has none or it has one already (not a first scan's order).
    private mutating func albumOfListing(_ path: RelativePath) throws -> AlbumTree.ID? {
        guard let name = path.lastComponent, let parentPath = path.parent else { return AlbumTree.rootID }
        guard let parent = albums.album(at: parentPath), albums.child(of: parent, named: name) == nil else { return nil }
        let id = try rows.insertAlbum(parent: parent, name: name)
        albums.insert(id: id, parent: parent, name: name)
        recorder.record(.albumCreated(path))
        return id
    }
}
