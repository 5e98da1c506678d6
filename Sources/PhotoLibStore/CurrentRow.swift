import GRDB
import GRDBSQLite
import PhotoLibCore

/// The row a statement is on, read straight from SQLite's column functions: for the queries that
/// read every file of the library at each start (the scan's and the full views' album by album),
/// where going through GRDB's `Row` cost more than SQLite's own search (77 against 120 ms for
/// 100,000 files). Valid only between the cursor's `next()` and the following one.
struct CurrentRow {
    let statement: SQLiteStatement

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    /// The column's text; nil when it is NULL.
    func text(_ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }

    /// A file name stored as a BLOB, copied once; nil when it is not a valid name (an empty BLOB included).
    func name(_ column: Int32) -> FileName? {
        FileName(bytes: bytes(column))
    }

    /// A BLOB's bytes, copied once; empty for an empty BLOB or NULL.
    func bytes(_ column: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, column))))
    }
}
