// Albums: made on demand, moved, removed; and Live Photo pairs made again after each batch.
extension IndexBatch {
    /// The album for a directory path, with rows made for directories the probe found but the index
    /// does not know yet. `nil` when the path is not an album now: gone, not a directory, hidden, or unreadable.
    mutating func ensureAlbum(_ path: RelativePath) throws -> AlbumTree.ID? {
        guard LibraryScope.isAlbum(path) else { return nil }
        var current = AlbumTree.rootID
        var walked = RelativePath.root
        for component in path.components {
            walked = walked.appending(component)
            if let next = albums.child(of: current, named: component) {
                current = next
                continue
            }
            switch try lookUp(walked) {
            case .found(let found) where found.kind == .directory:
                break
            case .unreadable(let failure):
                unreadable[walked] = failure
                return nil
            case .found, .gone:
                return nil
            }
            let id = try rows.insertAlbum(parent: current, name: component)
            albums.insert(id: id, parent: current, name: component)
            recorder.record(.albumCreated(walked))
            current = id
        }
        return current
    }

    mutating func moveAlbum(from: RelativePath, to: RelativePath) throws {
        outcome.albumsRearranged = true
        forgetUnreadable(within: from)
        guard LibraryScope.isAlbum(to) else {
            try removeAlbum(from)  // into a dot-directory: it left the library
            return
        }
        guard let id = albums.album(at: from), id != AlbumTree.rootID else {
            try scanNewDirectory(to)
            return
        }
        guard let newName = to.lastComponent, let newParent = try ensureAlbum(to.parent ?? .root) else {
            try removeAlbum(from)
            return
        }
        if let replaced = albums.child(of: newParent, named: newName), replaced != id {
            try removeAlbum(to)
        }
        try rows.moveAlbum(id, parent: newParent, name: newName)
        albums.move(id, toParent: newParent, name: newName)
        recorder.record(.albumMoved(from: from, to: to))
    }

    mutating func removeAlbum(_ path: RelativePath) throws {
        outcome.albumsRearranged = true
        forgetUnreadable(within: path)
        guard let id = albums.album(at: path), id != AlbumTree.rootID else { return }
        if recorder.isRecording {
            for record in try rows.assets(inAlbums: albums.subtree(of: id)) {
                recorder.record(.asset(old: locate(record), new: nil))
            }
        }
        try rows.deleteAlbum(id)
        albums.remove(id)
        recorder.record(.albumRemoved(path))
    }

    // MARK: Live Photos

    /// Pairs again the stems and albums whose files changed in this batch, as `LivePairing` decides.
    mutating func pairTouched() throws {
        defer {
            touchedStems = [:]
            touchedAlbums = []
        }
        for album in touchedAlbums where albums.contains(album) {
            let (members, counts) = try rows.pairingMembers(inAlbum: album, stem: nil)
            try pair(LivePairing.plan(members, memberCounts: counts))
        }
        for (album, stems) in touchedStems where !touchedAlbums.contains(album) && albums.contains(album) {
            for stem in stems {
                let (members, counts) = try rows.pairingMembers(inAlbum: album, stem: stem)
                try pair(LivePairing.plan(members, memberCounts: counts))
            }
        }
    }

    mutating func pair(_ edits: [LivePairing.Edit]) throws {
        for edit in edits {
            switch edit {
            case .join(let rowID, let target):
                guard let member = try rows.member(rowID: rowID) else { continue }
                let (oldSource, oldTarget) = (try snapshot(member.asset), try snapshot(target))
                try rows.moveMember(rowID, toAsset: target)
                recorder.record(.asset(old: oldSource, new: try snapshot(member.asset)))
                recorder.record(.asset(old: oldTarget, new: try snapshot(target)))
            case .split(let rowID):
                guard let member = try rows.member(rowID: rowID) else { continue }
                let old = try snapshot(member.asset)
                let own = try rows.splitMember(member)
                recorder.record(.asset(old: old, new: try snapshot(member.asset)))
                recorder.record(.asset(old: nil, new: try snapshot(own)))
            }
        }
    }
}
