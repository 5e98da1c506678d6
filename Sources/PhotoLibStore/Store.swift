import GRDB
public import PhotoLibCore
import Foundation
import Synchronization

/// The daemon's state in SQLite: the asset index, albums, apps and selections.
///
/// Write-ahead logging (`DatabasePool`) lets status and listing requests read
/// while the engine writes. Every write is one transaction: a batch of library
/// changes, or one `photolibctl` edit, is either wholly stored or not at all,
/// and once stored survives a crash of the daemon (WAL with
/// `synchronous=NORMAL` survives a process crash; a power loss may lose the
/// last commits).
public final class Store: Sendable {
    private let writer: any DatabaseWriter
    /// Checkpoints the log off the writer's path (nil for in-memory stores).
    private let checkpointer: Checkpointer?
    /// Told when each write transaction opens and closes (a test's audit); nil in the daemon.
    private let observer: (any WriteTransactionObserver)?
    public let path: String
    private let commits = Atomic<UInt64>(0)
    private let appState = AppStateWatch()
    /// The schema steps this open took on a database an older photolibd had made (for the log), in order.
    public let migrated: [String]
    /// The library's asset IDs (schema v24): the key never changes once made, so it is read once.
    private let assetIDs: AssetIDPermutation

    /// How many write transactions have committed since the store was opened. Read before a
    /// read transaction, it names a state the read's snapshot is at least as new as: what is
    /// derived from reads (a sorted listing) may be kept while it stays the same.
    public var generation: UInt64 { commits.load(ordering: .acquiring) }

    /// How many commits have changed an app, its selections or its rules since the store was
    /// opened (`AppStateWatch`): what is derived from those alone may be kept while it stays the same.
    public var appStateVersion: UInt64 { appState.version.load(ordering: .acquiring) }

    /// Opens (creating and migrating as needed) the database at `path`.
    /// - Parameter checkpoints: told when the checkpoints of the log start failing, and when they work again.
    /// - Parameter observer: told when each write transaction opens and closes, on its thread.
    public init(path: String, checkpoints: @escaping @Sendable (CheckpointReport) -> Void = { _ in },
                observer: (any WriteTransactionObserver)? = nil) throws(PhotoLibError) {
        self.path = path
        self.observer = observer
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // Readers: 1 MiB of page cache, as the kernel's page cache holds the file anyway.
                // The writer: up to 64 MiB, for a large transaction (the first scan of 100,000
                // files) spills its dirty pages to the log again and again once its cache is
                // full, which was 40% of the first start's time. `releaseMemory` gives it back.
                try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -1024 : -65536)")
                // A statement that may abort halfway (an insert into a table with unique indexes)
                // keeps the pages it changes in a statement journal, a temporary file by default:
                // the first scan of 100,000 files wrote 4 bytes and a page there 1.25 million times
                // (strace), a third of its CPU time. In memory it is a copy, and it is emptied after
                // each statement, so it stays a few pages.
                if !db.configuration.readonly { try db.execute(sql: "PRAGMA temp_store = MEMORY") }
            }
            configuration.maximumReaderCount = 2
            let pool = try DatabasePool(path: path, configuration: configuration)
            let before = try pool.read { try Schema.migrator.appliedIdentifiers($0) }
            try Schema.migrator.migrate(pool)
            // A new database takes every step; one from an older photolibd only those it lacked.
            migrated = before.isEmpty ? [] : Schema.migrator.migrations.filter { !before.contains($0) }
            // Only the writer commits, so only it would checkpoint: the Checkpointer does instead.
            // A burst can grow the log; once it is reset, it is cut back to 16 MiB.
            try pool.writeWithoutTransaction {
                try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try $0.execute(sql: "PRAGMA journal_size_limit = \(16 << 20)")
            }
            pool.add(transactionObserver: appState, extent: .databaseLifetime)
            writer = pool
            assetIDs = try pool.read { try StoreTransaction.loadAssetIDs($0, path: path) }
            checkpointer = try Checkpointer(path: path, truncate: {
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            }, report: checkpoints)
        } catch {
            throw PhotoLibError.databaseFailed(path: path, detail: "\(error)")
        }
    }

    /// Frees the pages the writer's cache holds (a scan or a burst filled it), so the
    /// daemon's memory at rest stays small; the next large write fills it again.
    public func releaseMemory() {
        writer.writeWithoutTransaction { $0.releaseMemory() }
    }

    /// Copies the whole log into the database and empties it, for a clean stop:
    /// the daemon's process ends without closing its connections, so SQLite
    /// would otherwise leave the log on disk at whatever size it had.
    public func checkpointForStop() {
        checkpointer?.stop()
        guard checkpointer != nil else { return }
        try? writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// An in-memory database with the same schema, for tests.
    public init(inMemory: Void = (), observer: (any WriteTransactionObserver)? = nil) throws {
        path = ":memory:"
        self.observer = observer
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue)
        queue.add(transactionObserver: appState, extent: .databaseLifetime)
        writer = queue
        assetIDs = try queue.read { try StoreTransaction.loadAssetIDs($0, path: ":memory:") }
        checkpointer = nil
        migrated = []
    }

    /// Runs `body` in one write transaction.
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        // Counted even when the body throws: a failed write may have changed nothing, and a
        // needless miss costs a reread, where a missed change would serve a stale listing.
        defer { commits.add(1, ordering: .releasing) }
        return try writer.write { db in
            observer?.transactionBegan()
            defer { observer?.transactionEnded() }
            return try body(StoreTransaction(db: db, path: path, ids: assetIDs))
        }
    }

    /// Runs `body` on a consistent read snapshot, concurrently with writes.
    public func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try writer.read { db in try body(StoreTransaction(db: db, path: path, ids: assetIDs)) }
    }

    /// SQLite's own consistency check: "ok", or the problems found.
    public func integrityCheck() throws -> String {
        try writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }
}

/// Typed queries inside one transaction. Only this module knows the SQL.
public struct StoreTransaction {
    let db: Database
    /// The database file, for errors about what is in it.
    var path = "the database"
    /// The library's asset IDs, read once by the store (`assetIDs()` reads them when nil).
    var ids: AssetIDPermutation? = nil

    /// Rows inserted, changed or deleted by this connection so far (SQLite's `total_changes`): a
    /// difference across some work tells whether it wrote anything.
    public var totalChanges: Int { db.totalChangesCount }
}
