import Glibc
import Logging
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibSystem

/// A file's content identity: what a check made before the file was indexed is matched by.
struct FileIdentityKey: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modificationTime: Int64

    init(_ file: FileFacts) {
        (device, inode, size, modificationTime) = (file.device, file.inode, file.size, file.modificationTime)
    }

    init(_ status: FileStatus) {
        (device, inode, size, modificationTime) = (status.device, status.inode, status.size, status.modificationTime)
    }
}

/// What a look made ahead found, and the stripped copy it made when the file holds a location.
struct LookedAhead: Sendable {
    let outcome: LocationCheck.Outcome
    let temporary: FileName?
}

/// The looks made ahead of a transaction, and the copies members adopted in it.
struct DerivativesAhead {
    /// Checks made ahead of the transaction that indexes their files, by the file's identity (`lookAhead`).
    var checks: [FileIdentityKey: LookedAhead] = [:]
    /// Derivatives made ahead and adopted by a member in the transaction: renamed to
    /// the member's name once it commits (`settleLookAhead`), by member row.
    var adoptions: [Int64: FileName] = [:]
}

/// What `status` says of derivatives.
struct DerivativeTally {
    /// Derivatives on disk and their bytes.
    var count = 0
    var bytes: Int64 = 0
    /// Member files whose location cannot be told, withheld from apps without
    /// location. Kept as checks change: `status` is refreshed after every batch,
    /// and counting all checks there would cost a pass over them each time.
    var withheld = 0
}

// Checks and copies made before the transaction that indexes their files (`LocationLookAhead`),
// adopted by the member that turns out to hold the file, and settled once the transaction ends.
extension DerivativeCatalog {
    /// Looks at the file now, outside any transaction, and makes its stripped copy if it needs one.
    func lookAhead(_ name: FileName, in album: FileDescriptor) {
        if let (key, outcome) = Self.look(at: name, in: album, into: directory, known: Set(ahead.checks.keys), generator: &generator,
                                          logger: logger) {
            ahead.checks[key] = outcome
        }
    }

    /// The files looked at ahead and not adopted yet, by identity.
    var lookedAheadKeys: Set<FileIdentityKey> { Set(ahead.checks.keys) }

    /// What looks made elsewhere found (`LookAheadJob`), kept for the transaction to adopt; a copy
    /// made for a file already looked at is removed.
    func receive(_ found: [FileIdentityKey: LookedAhead]) {
        for (key, outcome) in found {
            guard ahead.checks[key] == nil else {
                // Best effort: a temporary left here is removed by the next `collectGarbage`.
                if let temporary = outcome.temporary { _ = try? Directory.unlink(temporary, in: directory) }
                continue
            }
            ahead.checks[key] = outcome
        }
    }

    /// Looks at one file: whether it holds a location, and if it does, its stripped copy made in
    /// `directory` under a temporary name. Nil when it is gone, cannot be opened now, is not a
    /// regular file, or its identity is in `known` (looked at already). Touches no catalog state:
    /// it runs on the engine or on a thread of its own.
    static func look<Random: RandomNumberGenerator>(at name: FileName, in album: FileDescriptor, into directory: FileDescriptor,
                                                     known: Set<FileIdentityKey>, generator: inout Random,
                                                     logger: Logger) -> (FileIdentityKey, LookedAhead)? {
        let original: FileDescriptor
        let found: FileStatus
        do {
            original = try FileCopy.openUntrusted(name, in: album)
            found = try Directory.status(of: original)
        } catch {
            return nil  // gone or not openable now: the transaction's own look decides
        }
        defer { original.close() }
        let key = FileIdentityKey(found)
        guard found.kind == .regular, !known.contains(key) else { return nil }
        do {
            let finding = try LocationStripper.inspect(original)
            guard finding.hasLocation else { return (key, LookedAhead(outcome: .noLocation, temporary: nil)) }
            let temporary = try strippedCopy(of: original, permissions: found.permissions, in: directory,
                                             named: temporaryName(&generator))
            let copy = try io { () throws(SystemCallError) in try Directory.status(of: temporary, in: directory) }
            guard let copy else { return nil }
            return (key, LookedAhead(outcome: .derived(inode: copy.inode, size: copy.size), temporary: temporary))
        } catch {
            logger.warning("Cannot tell whether \(name) holds a location: \(error). It is left out of the views of apps that may not see locations until it changes.")
            return (key, LookedAhead(outcome: .cannotTell(error.description), temporary: nil))
        }
    }

    /// The check made ahead for this file, now the member's; its copy is the member's derivative once the transaction commits.
    func adoptLookedAhead(rowID: Int64, file: FileFacts) -> LocationCheck? {
        guard let made = ahead.checks.removeValue(forKey: FileIdentityKey(file)) else { return nil }
        if let temporary = made.temporary { ahead.adoptions[rowID] = temporary }
        return LocationCheck(of: file, outcome: made.outcome)
    }

    /// Once the transaction has ended: when it committed, each adopted copy takes its member's
    /// name; what no member adopted, or what a rolled-back transaction adopted, is removed.
    func settleLookAhead(committed: Bool) {
        var unused = ahead.checks.values.compactMap(\.temporary)
        ahead.checks = [:]
        if committed {
            for (rowID, temporary) in ahead.adoptions {
                do {
                    _ = try install(temporary, as: rowID)
                } catch {
                    // The member's check names a copy that is not there: the next link looks again and makes it anew.
                    logger.warning("Cannot put the copy without location of member \(rowID) in place: \(error); it is made again when linked.")
                    unused.append(temporary)
                }
            }
        } else {
            unused += ahead.adoptions.values
            forget(members: ahead.adoptions.keys)  // their rows were rolled back
        }
        ahead.adoptions = [:]
        for temporary in unused {
            do {
                _ = try Directory.unlink(temporary, in: directory)
            } catch {
                logger.warning("Cannot remove the unused copy \(temporary) from \(Self.directoryName): \(error); the next clean-up removes it.")
            }
        }
    }
}
