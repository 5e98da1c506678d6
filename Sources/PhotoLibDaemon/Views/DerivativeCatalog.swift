import Glibc
import Logging
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibSystem

/// The derivatives without location (SPEC §9), and what each member file was
/// found to hold.
///
/// One derivative per member file that carries a location, shared by every
/// app whose policy is `none` (each such view hardlinks it), kept in
/// `.derivatives` beside the views (so on the library's mount: a view can
/// link it), named by the member's row (`m42`; rows are never reused). It is
/// made again when the original's content changes (its check is then stale),
/// and removed when no view links it any more (its link count falls to one);
/// with clones, when its original changes or goes (`DerivativeRetention`).
///
/// Checks live in memory and in the store: this type learns, the engine
/// stores what it learned (`takeLearned`) after each batch, as it does refusals.
final class DerivativeCatalog {
    static let directoryName = FileName(".derivatives")!

    /// `.derivatives`, 0700, the daemon's own.
    let directory: FileDescriptor
    let logger: Logger
    private var checks: [Int64: LocationCheck]
    private var learned: [Int64: LocationCheck] = [:]
    var generator = SystemRandomNumberGenerator()
    /// What `status` says of derivatives, kept as they change.
    private(set) var tally = DerivativeTally()
    /// Checks and copies made ahead of the transaction that indexes their files.
    var ahead = DerivativesAhead()
    /// Whether views link derivatives or clone them: which tells when one is no longer needed.
    let form: ViewEntryForm
    /// Some view copies its entries (a Flatpak Pictures folder): current derivatives are kept for it.
    var copied = false
    /// The derivatives in `.derivatives`, by member row, with their inodes: as listed at start and
    /// by each full clean-up, and as this process made and removed them since. A decision made under
    /// the write lock trusts this and never looks at the disk (`knownSource`); one made outside it
    /// looks, and corrects it.
    private var onDisk: [Int64: UInt64] = [:]

    init(viewsRoot: FileDescriptor, checks: [Int64: LocationCheck], form: ViewEntryForm = .links, logger: Logger) throws(SystemCallError) {
        self.form = form
        try Directory.makeDirectory(Self.directoryName, in: viewsRoot, mode: 0o700)
        directory = try Directory.open(Self.directoryName, in: viewsRoot)
        // Files that could not be read are tried again at each start: a newer
        // photolibd, exiv2 or a fixed permission may read them now.
        self.checks = checks.filter { if case .cannotTell = $0.value.outcome { false } else { true } }
        self.logger = logger
        for entry in try Directory.list(directory) {
            guard let rowID = DerivativeRetention.memberRow(of: entry.name), let status = try Directory.status(of: entry.name, in: directory),
                  status.kind == .regular else { continue }
            onDisk[rowID] = status.inode
        }
    }

    static func derivativeName(_ rowID: Int64) -> FileName { LinkSource.derivativeName(rowID) }

    /// Which file an entry of an app with `policy` links for this member,
    /// looking at the original (and deriving) first when it must.
    func source(policy: LocationPolicy, rowID: Int64, file: FileFacts, album: FileDescriptor?, name: FileName) -> EntrySource {
        let known = decided(policy: policy, rowID: rowID, file: file, name: name, lookingAtTheDisk: true)
        guard known == .needsCheck else { return known }
        guard let album else { return .withheld(reason: "its album cannot be opened now") }
        logger.debug("Member \(rowID) is looked at for a location now.")
        switch look(rowID: rowID, file: file, album: album, name: name) {
        case .some(let check):
            remember(check, rowID: rowID)
            return EntrySource.decide(policy: policy, file: file, check: check)
        case .none:
            return .withheld(reason: "it changed or went while it was read")
        }
    }

    /// Which file an entry of an app with `policy` links for this member, from what is known now,
    /// without a single system call: for a write transaction, which holds SQLite's lock. A copy made
    /// ahead of it is adopted; a member that needs a look is `needsCheck`, looked at after the commit,
    /// where its view is linked (a file that changed after its look ahead is seen again by its event).
    func knownSource(policy: LocationPolicy, rowID: Int64, file: FileFacts, name: FileName) -> EntrySource {
        decided(policy: policy, rowID: rowID, file: file, name: name, lookingAtTheDisk: false)
    }

    private func decided(policy: LocationPolicy, rowID: Int64, file: FileFacts, name: FileName, lookingAtTheDisk: Bool) -> EntrySource {
        var decided = EntrySource.decide(policy: policy, file: file, check: checks[rowID])
        if case .derivative(let inode, _) = decided, !derivativeExists(rowID, inode: inode, lookingAtTheDisk: lookingAtTheDisk) {
            decided = .needsCheck  // lost (a crash before it was synced, a hand in .derivatives): made again
        }
        if policy == .none, !file.isReadableByOwner, checks[rowID]?.isCurrent(for: file) != true {
            // Withheld by its mode: kept as a check too, so status and `assets --withheld` count and name it.
            logger.warning("\(name) is left out of the views of apps that may not see locations: \(LocationCheck.unreadableReason).")
            remember(.unreadable(file), rowID: rowID)
        }
        guard decided == .needsCheck else { return decided }
        if let check = adoptLookedAhead(rowID: rowID, file: file) {
            logger.debug("Member \(rowID) adopted the location check made ahead of its transaction.")
            remember(check, rowID: rowID)
            return EntrySource.decide(policy: policy, file: file, check: check)
        }
        return .needsCheck
    }

    /// How a member appears to an app with `policy`, from what is known now (nothing is looked at).
    func appearance(policy: LocationPolicy, member: LocatedMember) -> MemberAppearance {
        MemberAppearance.of(policy: policy, file: member.file, check: checks[member.rowID])
    }

    /// The check made now, or nil when the file is not the indexed one any more (its event decides).
    private func look(rowID: Int64, file: FileFacts, album: FileDescriptor, name: FileName) -> LocationCheck? {
        let original: FileDescriptor
        do {
            original = try FileCopy.openUntrusted(name, in: album)
        } catch where error.errno == EACCES {
            // The owner's own file, which the owner may not read: an answer of its own, not a file that went.
            return .unreadable(file)
        } catch {
            return nil
        }
        defer { original.close() }
        let opened: FileStatus
        do {
            opened = try Directory.status(of: original)
        } catch {
            return nil
        }
        guard opened.kind == .regular, opened.inode == file.inode, opened.size == file.size,
              opened.modificationTime == file.modificationTime else { return nil }
        do {
            let finding = try LocationStripper.inspect(original)
            guard finding.hasLocation else { return LocationCheck(of: file, outcome: .noLocation) }
            let (inode, size) = try derive(rowID: rowID, from: original, permissions: file.permissions)
            return LocationCheck(of: file, outcome: .derived(inode: inode, size: size))
        } catch {
            logger.warning("Cannot tell whether \(name) holds a location: \(error). It is left out of the views of apps that may not see locations until it changes.")
            return LocationCheck(of: file, outcome: .cannotTell(error.description))
        }
    }

    /// Copies the original under a temporary name, strips it, checks it, and
    /// renames it over the member's derivative.
    private func derive(rowID: Int64, from original: FileDescriptor, permissions: UInt32) throws(DerivativeProblem) -> (UInt64, Int64) {
        let temporary = try strippedCopy(of: original, permissions: permissions)
        do {
            let derived = try Self.io { () throws(SystemCallError) in try install(temporary, as: rowID) }
            return (derived.inode, derived.size)
        } catch {
            // A temporary that cannot be removed now is removed by the next `collectGarbage`.
            _ = try? Directory.unlink(temporary, in: directory)
            throw error
        }
    }

    /// A copy of the original without its location, under a temporary (hidden) name, checked.
    func strippedCopy(of original: FileDescriptor, permissions: UInt32) throws(DerivativeProblem) -> FileName {
        try Self.strippedCopy(of: original, permissions: permissions, in: directory, named: Self.temporaryName(&generator))
    }

    /// A name for a copy being made, which no member's derivative has.
    static func temporaryName<Random: RandomNumberGenerator>(_ generator: inout Random) -> FileName {
        FileName(".tmp-\(String(generator.next(), radix: 16))")!
    }

    /// Copies `original` to `temporary` in `directory` and strips its location there (the catalog's
    /// own directory, from the engine or from a thread of its own: nothing else of the catalog is touched).
    static func strippedCopy(of original: FileDescriptor, permissions: UInt32, in directory: FileDescriptor,
                             named temporary: FileName) throws(DerivativeProblem) -> FileName {
        var made = false
        defer {
            // A temporary that cannot be removed now is removed by the next `collectGarbage`.
            if !made { _ = try? Directory.unlink(temporary, in: directory) }
        }
        try io { () throws(SystemCallError) in
            let copy = try FileCopy.createTarget(temporary, in: directory)
            defer { copy.close() }
            _ = try FileCopy.copy(from: original, to: copy, limit: Int64.max - 1)
        }
        let path = "\(directory.procPath)/\(temporary)"
        let copy = try io { () throws(SystemCallError) in try FileCopy.openReadWrite(temporary, in: directory) }
        defer { copy.close() }
        try LocationStripper.strip(copy, path: path)
        // Read back by name: exiv2 may have written the file anew.
        let result = try io { () throws(SystemCallError) in try FileCopy.openUntrusted(temporary, in: directory) }
        defer { result.close() }
        try LocationStripper.verifyStripped(result)
        // Readable as the original was, writable by no one: apps only ever read it.
        try io { () throws(SystemCallError) in try FileCopy.setMode(result, (permissions & 0o444) | 0o400) }
        made = true
        return temporary
    }

    /// Renames a made copy over the member's derivative; returns what is there now.
    func install(_ temporary: FileName, as rowID: Int64) throws(SystemCallError) -> FileStatus {
        let replaced = try Directory.status(of: Self.derivativeName(rowID), in: directory)
        try Directory.rename(temporary, in: directory, to: Self.derivativeName(rowID), in: directory)
        guard let derived = try Directory.status(of: Self.derivativeName(rowID), in: directory) else {
            throw SystemCallError("stat \(Self.derivativeName(rowID))", errno: ENOENT)
        }
        if let replaced { tally.bytes -= replaced.size } else { tally.count += 1 }
        tally.bytes += derived.size
        onDisk[rowID] = derived.inode
        return derived
    }

    /// Whether the derivative is there as recorded: looked at on the disk (which corrects what is
    /// known of it), or, under the write lock, as known. A look that fails (not ENOENT) answers no
    /// for this decision only: the derivative is made again rather than one linked unchecked.
    private func derivativeExists(_ rowID: Int64, inode: UInt64, lookingAtTheDisk: Bool) -> Bool {
        // Made ahead and adopted: it takes its name once the transaction commits.
        if ahead.adoptions[rowID] != nil { return true }
        guard lookingAtTheDisk else { return onDisk[rowID] == inode }
        do {
            let found = try Directory.status(of: Self.derivativeName(rowID), in: directory)?.inode  // nil: not there (ENOENT)
            onDisk[rowID] = found
            return found == inode
        } catch {
            // Not knowable now (EIO, EACCES): not taken for gone in what is known of .derivatives, and not
            // linked unchecked either; this decision makes the copy again, which says why if it cannot.
            logger.warning("Cannot look at the copy without location of member \(rowID) in \(Self.directoryName): \(error); it is made again.")
            return false
        }
    }

    func remember(_ check: LocationCheck, rowID: Int64) {
        set(check, rowID: rowID)
        learned[rowID] = check
    }

    /// The one place a check changes, so `withheld` follows.
    private func set(_ check: LocationCheck?, rowID: Int64) {
        if case .cannotTell = checks[rowID]?.outcome { tally.withheld -= 1 }
        if case .cannotTell = check?.outcome { tally.withheld += 1 }
        checks[rowID] = check
    }

    /// Forgets the checks of member files that are gone (the store drops
    /// theirs with the row), so `withheld` counts only files that are there.
    func forget(members: some Sequence<Int64>) {
        for rowID in members { set(nil, rowID: rowID) }
    }

    /// Checks learned since the last call, for the store.
    func takeLearned() -> [Int64: LocationCheck] {
        defer { learned = [:] }
        return learned
    }

    /// Removes derivatives no longer needed (`DerivativeRetention`) and leftovers
    /// of a derivation cut short, and counts what stays.
    func collectGarbage() {
        var count = 0
        var bytes: Int64 = 0
        var listed: [Int64: UInt64] = [:]
        do {
            for entry in try Directory.list(directory) {
                guard let status = try Directory.status(of: entry.name, in: directory) else { continue }
                if entry.name.isHidden || !keeps(entry.name, status) {
                    _ = try Directory.unlink(entry.name, in: directory)
                    continue
                }
                count += 1
                bytes += status.size
                if let rowID = DerivativeRetention.memberRow(of: entry.name) { listed[rowID] = status.inode }
            }
            onDisk = listed
        } catch {
            logger.warning("Cannot clear unused derivatives out of \(Self.directoryName): \(error); the next pass tries again.")
            return
        }
        tally.count = count
        tally.bytes = bytes
    }

    /// Whether a derivative on disk is still needed.
    private func keeps(_ name: FileName, _ status: FileStatus) -> Bool {
        let check = DerivativeRetention.memberRow(of: name).flatMap { checks[$0] }
        return DerivativeRetention.keeps(form: form, linkCount: status.linkCount, inode: status.inode, check: check, copied: copied)
    }

    /// Removes the derivatives of these members when no longer needed.
    func collectGarbage(members: some Sequence<Int64>) {
        for rowID in members {
            // With links (and references, whose derivatives are links), only a derivative a view may have linked is looked at; with clones, a
            // member gone or changed has no current check, and its derivative goes too.
            if form != .clones { guard case .derived = checks[rowID]?.outcome else { continue } }
            let name = Self.derivativeName(rowID)
            // Best effort between full passes: what fails here, `collectGarbage()` removes.
            guard let status = try? Directory.status(of: name, in: directory), !keeps(name, status) else { continue }
            if (try? Directory.unlink(name, in: directory)) == true {
                tally.count -= 1
                tally.bytes -= status.size
                onDisk[rowID] = nil
            }
        }
    }

    static func io<T>(_ body: () throws(SystemCallError) -> T) throws(DerivativeProblem) -> T {
        do {
            return try body()
        } catch {
            throw .io(call: error.call, errno: error.errno)
        }
    }
}
