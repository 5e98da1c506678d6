import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Albums made on demand, and Live Photo pairs made again after each batch.
extension LibraryIndex {
    // MARK: Live Photos

    /// Pairs again the stems and albums whose files changed in this batch, as `LivePairing` decides.
    func pairTouched(tx: StoreTransaction, recorder: ChangeRecorder) throws {
        defer {
            touchedStems = [:]
            touchedAlbums = []
        }
        for album in touchedAlbums where albums.contains(album) {
            let (members, counts) = try tx.pairingMembers(inAlbum: album)
            try carryOut(LivePairing.plan(members, memberCounts: counts), tx: tx, recorder: recorder)
        }
        for (album, stems) in touchedStems where !touchedAlbums.contains(album) && albums.contains(album) {
            for stem in stems {
                let (members, counts) = try tx.pairingMembers(inAlbum: album, stem: stem)
                try carryOut(LivePairing.plan(members, memberCounts: counts), tx: tx, recorder: recorder)
            }
        }
    }

    func carryOut(_ edits: [LivePairing.Edit], tx: StoreTransaction, recorder: ChangeRecorder) throws {
        for edit in edits {
            switch edit {
            case .join(let rowID, let target):
                guard let member = try tx.member(rowID: rowID) else { continue }
                let (oldSource, oldTarget) = (try snapshot(member.asset, tx: tx, recorder: recorder),
                                              try snapshot(target, tx: tx, recorder: recorder))
                try tx.moveMember(rowID, toAsset: target)
                recorder.record(.asset(old: oldSource, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
                recorder.record(.asset(old: oldTarget, new: try snapshot(target, tx: tx, recorder: recorder)))
            case .split(let rowID):
                guard let member = try tx.member(rowID: rowID) else { continue }
                let old = try snapshot(member.asset, tx: tx, recorder: recorder)
                let own = try tx.splitMember(member, generator: &generator)
                recorder.record(.asset(old: old, new: try snapshot(member.asset, tx: tx, recorder: recorder)))
                recorder.record(.asset(old: nil, new: try snapshot(own, tx: tx, recorder: recorder)))
            }
        }
    }

    /// The album for a directory path, creating rows for directories that exist on disk but not yet in the index.
    /// `nil` when the path is not an album now: gone, not a directory, hidden, or not readable.
    func ensureAlbum(_ path: RelativePath, tx: StoreTransaction, recorder: ChangeRecorder) throws -> AlbumTree.ID? {
        guard LibraryScope.isAlbum(path) else { return nil }
        var current = AlbumTree.rootID
        var walked = RelativePath.root
        for component in path.components {
            walked = walked.appending(component)
            if let next = albums.child(of: current, named: component) {
                current = next
                continue
            }
            switch lookUp(walked) {
            case .found(let found) where found.kind == .directory:
                break
            case .unreadable(let failure):
                unreadable[walked] = failure
                return nil
            case .found, .gone:
                return nil
            }
            let id = try tx.insertAlbum(parent: current, name: component)
            albums.insert(id: id, parent: current, name: component)
            recorder.record(.albumCreated(walked))
            current = id
        }
        return current
    }
}
