import Foundation
import Glibc
import Logging
@testable import PhotoLibDaemon
import PhotoLibCore
import PhotoLibStore
import PhotoLibSystem
import TestSupport

/// A `LibraryIndex` on a temporary directory and an in-memory store: the
/// index's wiring tested without a daemon, a socket or inotify. The events a
/// test hands it are the ones the watcher would have queued.
final class TemporaryLibrary {
    let root: String
    let store: Store
    let board = StatusBoard()
    let index: LibraryIndex

    /// - Parameter observer: told when each write transaction opens and closes (a `SystemCallAudit`).
    init(observer: (any WriteTransactionObserver)? = nil) throws {
        root = try makeTemporaryDirectory("photolibd-index")
        store = try Store(inMemory: (), observer: observer)
        let access = LibraryAccess(root: try Directory.open(path: root))
        index = try LibraryIndex(store: store, policy: .standard, access: access, board: board, ownerUID: getuid(),
                                 logger: Logger(label: "test"))
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes a file (its parent directories made as needed).
    func write(_ path: String, _ text: String = "photo") throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func move(_ from: String, _ to: String) throws {
        guard rename(root + "/" + from, root + "/" + to) == 0 else { throw SystemCallError("rename \(from)", errno: errno) }
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + path)
    }

    /// A full scan; returns what it recorded.
    @discardableResult
    func scan() throws -> [ViewChange] {
        let recorder = ChangeRecorder(recording: true)
        try index.fullScan(recorder: recorder)
        return recorder.changes
    }

    /// Applies one batch of events; returns what it recorded and what it asks of the engine.
    @discardableResult
    func apply(_ events: [WatchEvent]) throws -> (changes: [ViewChange], outcome: LibraryIndex.Outcome) {
        let recorder = ChangeRecorder(recording: true)
        let outcome = try index.apply(events, recorder: recorder)
        return (recorder.changes, outcome)
    }

    /// Every asset's ID by the path of its first member.
    func assets() throws -> [String: AssetID] {
        let records = try store.read { try $0.assets(albums: nil, mediaType: nil, nameContains: nil) }
        var byPath: [String: AssetID] = [:]
        for record in records {
            guard let member = record.members.first, let path = index.albums.path(of: member.album) else { continue }
            byPath[path.appending(member.name).escaped] = record.id
        }
        return byPath
    }

    static func path(_ text: String) -> RelativePath { RelativePath(escaped: text)! }
}
