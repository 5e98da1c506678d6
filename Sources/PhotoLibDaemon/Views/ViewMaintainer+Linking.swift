import Glibc
import Logging
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem

// Linking one entry, and removing one that is no longer wanted.
extension ViewMaintainer {
    /// Hardlinks an asset into a view directory so that a wrong entry is never visible.
    ///
    /// The source is opened `O_PATH|O_NOFOLLOW` and judged by `LinkVerdict`
    /// (regular file, the indexed inode, the owner's, writable by no one else,
    /// no set-ID bit); that very descriptor is linked (`AT_EMPTY_PATH`, or
    /// through `/proc/self/fd` where the kernel wants a capability for that),
    /// straight to its name, or under a hidden temporary name renamed over an
    /// entry already there. So what was checked is what is linked, whatever
    /// happens to the name meanwhile, and an app never sees a wrong entry.
    func link(_ asset: LinkSource, as entry: FileName, in directory: FileDescriptor) throws -> LinkOutcome {
        guard let sourceDirectory = asset.isDerivative ? derivatives.directory : access.directory(asset.album) else { return .skipped }
        let source: FileDescriptor
        let opened: FileStatus
        do {
            source = try Directory.openPath(asset.name, in: sourceDirectory)
        } catch {
            return .skipped  // gone or unreadable since it was indexed: its event or the next scan decides
        }
        defer { source.close() }
        do {
            opened = try Directory.status(of: source)
        } catch {
            return .skipped
        }
        switch LinkVerdict.judge(opened.observation, expectedInode: asset.inode, daemonUID: ownerUID) {
        case .notTheIndexedFile:
            return .skipped
        case .refuse(let refusal):
            // A derivative is the daemon's own, made to pass; the original's refusal is for the original.
            if !asset.isDerivative { learnedRefusals[asset.rowID] = refusal }
            return .refused(refusal)
        case .link:
            break
        }
        // Linked by the very descriptor that was judged, so the entry is right
        // from the instant it exists. Straight to its name when that is free;
        // an entry already there (an original replaced by an atomic save, a
        // tampered view) is replaced by a rename, so it is never missing or wrong.
        do {
            try Directory.link(open: source, as: entry, in: directory)
            return .linked
        } catch where error.errno == EEXIST {
            // The very file already there: nothing to do. Anything else is replaced below.
            if let existing = try Directory.status(of: entry, in: directory), existing.kind == .regular, existing.inode == opened.inode {
                return .linked
            }
        } catch {
            return try linkFailed(error, asset)
        }
        let temporary = FileName(".photolibd-link-\(String(generator.next(), radix: 16))")!
        do {
            try Directory.link(open: source, as: temporary, in: directory)
        } catch {
            return try linkFailed(error, asset)
        }
        do {
            try Directory.rename(temporary, in: directory, to: entry, in: directory)
        } catch {
            do {
                try Directory.unlink(temporary, in: directory)
            } catch let cleanup {
                logger.warning("Cannot remove the temporary link \(temporary) from a view: \(cleanup); the next reconcile removes it.")
            }
            throw error
        }
        return .linked
    }

    /// What a failed `linkat` of a judged original means: another mount is a
    /// configuration error; gone since it was opened is for its event to
    /// decide; a refusal by the kernel is learned for that file alone.
    func linkFailed(_ error: SystemCallError, _ asset: LinkSource) throws -> LinkOutcome {
        if error.errno == EXDEV { throw PhotoLibError.viewsOnOtherMount(library: paths.library, views: paths.views) }
        if error.isNotFound || asset.isDerivative { return .skipped }
        guard let refusal = LinkRefusal(linkFailure: error.errno) else { throw error }
        logger.warning("Cannot link \(asset.album.appending(asset.name)) into a view: \(error). It is left out of every view: \(refusal.explanation).")
        learnedRefusals[asset.rowID] = refusal
        return .refused(refusal)
    }

    /// Unlinks an entry unless it is this very inode.
    func removeUnless(_ name: FileName, in directory: FileDescriptor, inode: UInt64) throws {
        if let present = try Directory.status(of: name, in: directory), present.kind == .regular, present.inode == inode { return }
        try Directory.unlink(name, in: directory)
    }
}
