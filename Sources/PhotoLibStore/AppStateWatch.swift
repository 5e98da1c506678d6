import GRDB
import Synchronization

/// Counts the commits that changed what an app is granted: its row (status, access, location,
/// layout), its selected photos and albums, its rules.
///
/// The engine keeps every app's view context between changes and reads them again only when
/// this count moved (`Store.appStateVersion`). The store's generation counts every commit, and
/// most change no app (places recorded, the access report's lines), so it would make every
/// watch batch read all apps again; a hand-written reset after each edit would be forgotten by
/// the next edit that is written. SQLite itself says which tables a commit touched.
final class AppStateWatch: TransactionObserver, @unchecked Sendable {
    // @unchecked: `touched` is read and written only on the writer's queue, where GRDB calls every
    // method below; `version` is atomic.
    static let tables: Set<String> = ["app", "selectedAsset", "selectedAlbum", "selectedRule"]

    let version = Atomic<UInt64>(0)
    private var touched = false

    /// The app row's columns that are the change log's bookkeeping, written with every event an app
    /// is sent: no context reads them, and counting them would read every app again after each change.
    static let bookkeeping: Set<String> = ["lasttoken", "historyfloor"]

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .update(let table, let columns) = eventKind, table.lowercased() == "app" {
            return !Set(columns.map { $0.lowercased() }).isSubset(of: Self.bookkeeping)
        }
        return Self.tables.contains(eventKind.tableName)
    }

    /// A selection table was written (`StoreTransaction.selectionsChange`): SQLite reports no row of a WITHOUT ROWID table.
    func databaseDidChange() {
        touched = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange(with event: DatabaseEvent) {
        touched = true
        // One change is enough to know: the rest of the transaction is not looked at.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        if touched { version.add(1, ordering: .releasing) }
        touched = false
    }

    func databaseDidRollback(_ db: Database) {
        touched = false
    }
}
