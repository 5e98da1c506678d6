import Dispatch
import Glibc
import PhotoLibCore
import PhotoLibSystem

/// Keeps the private, read-only copies a pick hands an app through the
/// portal, each pick in a directory of its own (`PickShelf`), and removes
/// them when they expire: first the Documents portal's export of each (so the
/// app's lasting document holds nothing), then the files.
///
/// The schedule is read back from the directory names at start, so copies
/// left by a backend that was stopped go at its next start.
final class PickShelfKeeper: @unchecked Sendable {
    // @unchecked: `shelf` and `timer` are touched only on `queue`.
    private let queue = DispatchQueue(label: "photolibd-portal.shelf")
    private var shelf: PickShelf
    private var timer: (any DispatchSourceTimer)?
    private let directory: String
    private let keepSeconds: Int64
    private let clock: any WallClock
    /// The uid the backend runs as: only its own copies are removed.
    private let ownerUID: UInt32
    /// Called with the paths of the files about to be removed.
    private let forget: @Sendable ([String]) -> Void
    private let log: @Sendable (String) -> Void

    init(directory: String, keepSeconds: Int64, clock: any WallClock, ownerUID: UInt32, forget: @escaping @Sendable ([String]) -> Void,
         log: @escaping @Sendable (String) -> Void) throws(SystemCallError) {
        self.directory = directory
        self.keepSeconds = keepSeconds
        self.clock = clock
        self.ownerUID = ownerUID
        self.forget = forget
        self.log = log
        try PrivateFiles.makeDirectory(directory)
        let root = try Directory.open(path: directory)
        defer { root.close() }
        shelf = PickShelf(names: try Directory.list(root).compactMap { String(validating: $0.name.bytes, as: UTF8.self) })
    }

    /// Removes what expired while no backend ran, and sets the timer for the rest.
    func start() {
        queue.async { self.sweep() }
    }

    /// True while copies wait to expire.
    var isEmpty: Bool { queue.sync { shelf.entries.isEmpty } }

    /// Puts the picked files (descriptors, read from their start) into a new
    /// pick directory as read-only files; returns their paths, in order, and
    /// how many were named in place rather than copied (`adopt`).
    /// Nothing is kept when any fails.
    func store(_ files: [(name: String, descriptor: Int32)]) throws(SystemCallError) -> (paths: [String], namedInPlace: Int) {
        let expiresAt = clock.now() + keepSeconds
        let token = String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt64.random(in: .min ... .max), radix: 16)
        let entryName = PickShelf.name(expiresAt: expiresAt, token: token)
        let root = try Directory.open(path: directory)
        defer { root.close() }
        guard let entry = FileName(entryName) else { throw SystemCallError("name \(entryName)", errno: EINVAL) }
        try Directory.makeDirectory(entry, in: root, mode: 0o700)
        var paths: [String] = []
        var namedInPlace = 0
        do {
            let pick = try Directory.open(entry, in: root)
            defer { pick.close() }
            var used = Set<String>()
            for (position, file) in files.enumerated() {
                let name = PickShelf.copyName(file.name, position: position, used: &used)
                let source = FileDescriptor(rawValue: file.descriptor)
                if try Self.adopt(source, as: FileName(name)!, in: pick, owner: ownerUID) {
                    namedInPlace += 1
                } else {
                    let target = try FileCopy.createTarget(FileName(name)!, in: pick)
                    defer { target.close() }
                    try FileCopy.rewind(source)
                    _ = try FileCopy.copy(from: source, to: target, limit: Int64.max - 1)
                    try FileCopy.setMode(target, 0o400)
                }
                paths.append(directory + "/" + entryName + "/" + name)
            }
        } catch {
            do {
                try Directory.removeTree(entry, in: root)
            } catch let cleanup {
                log("Could not remove the half-made pick \(directory)/\(entryName): \(cleanup); it goes when it expires.")
            }
            throw error
        }
        queue.async {
            self.shelf.add(PickShelf.Entry(name: entryName, expiresAt: expiresAt))
            self.schedule()
        }
        return (paths, namedInPlace)
    }

    /// Names the file itself when it is a private copy made for this pick alone (the daemon's unnamed,
    /// read-only O_TMPFILE) on the shelf's filesystem: no byte is copied twice. False when it must be copied.
    static func adopt(_ source: FileDescriptor, as name: FileName, in pick: FileDescriptor, owner: UInt32) throws(SystemCallError) -> Bool {
        let status = try Directory.status(of: source)
        // A file with a name elsewhere (an original, a shared derivative) is never linked into the shelf.
        guard status.linkCount == 0, status.kind == .regular, status.owner == owner, status.permissions & 0o222 == 0 else {
            return false
        }
        do {
            try Directory.link(open: source, as: name, in: pick)
            return true
        } catch where [EXDEV, ENOENT, EPERM, EACCES, EOPNOTSUPP].contains(error.errno) {
            return false  // another filesystem, or a file that cannot be given a name: copied instead
        }
    }

    private func sweep() {
        let due = shelf.takeDue(at: clock.now())
        if !due.isEmpty { remove(due) }
        schedule()
    }

    private func schedule() {
        timer?.cancel()
        timer = nil
        guard let next = shelf.nextDue else { return }
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + .seconds(Int(max(0, next - clock.now()))))
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        timer = source
    }

    private func remove(_ entries: [PickShelf.Entry]) {
        let root: FileDescriptor
        do {
            root = try Directory.open(path: directory)
        } catch {
            log("Cannot open \(directory) to remove expired picks: \(error); they are removed at the backend's next start.")
            return
        }
        defer { root.close() }
        for entry in entries {
            guard let name = FileName(entry.name) else { continue }
            do {
                let pick = try Directory.open(name, in: root)
                let files = try Directory.list(pick).map { directory + "/" + entry.name + "/" + String(decoding: $0.name.bytes, as: UTF8.self) }
                pick.close()
                forget(files)
                try Directory.removeTree(name, in: root)
                log("Removed the copies of an expired pick (\(files.count) files in \(directory)/\(entry.name)).")
            } catch where error.isNotFound {
                continue
            } catch {
                log("Cannot remove the expired pick \(directory)/\(entry.name): \(error); it is tried again at the backend's next start.")
            }
        }
    }
}
