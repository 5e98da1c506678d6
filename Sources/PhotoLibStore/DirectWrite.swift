import GRDB
import GRDBSQLite

/// Runs an INSERT with its values bound straight through SQLite's functions: for the writes every
/// new file makes (its asset and its member row), where GRDB's boxing of each value into
/// `StatementArguments` cost more than SQLite's own insert. Errors are GRDB's `DatabaseError`, as
/// from `execute`, with SQLite's message, so callers (and the unique-ID retry) read them alike.
struct DirectWrite {
    private let statement: Statement
    private let raw: SQLiteStatement
    private let db: Database

    init(_ statement: Statement, in db: Database) {
        self.statement = statement
        raw = statement.sqliteStatement
        self.db = db
    }

    /// Binds the values in order (1-based, as SQLite counts), steps through the rows a RETURNING
    /// clause gives (each read by `eachRow` while it is current), and leaves the statement reset.
    func run(_ values: [Value], eachRow: (CurrentRow) -> Void = { _ in }) throws {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(raw, index, number)
            case .text(let text): code = sqlite3_bind_text(raw, index, text, -1, Self.transient)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), Self.transient) }
            case .null: code = sqlite3_bind_null(raw, index)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        var code = sqlite3_step(raw)
        while code == SQLITE_ROW {
            eachRow(CurrentRow(raw))
            code = sqlite3_step(raw)
        }
        guard code == SQLITE_DONE else {
            let error = failure(code)
            sqlite3_reset(raw)
            throw error
        }
        sqlite3_reset(raw)
    }

    /// One value to bind.
    enum Value {
        case integer(Int64)
        case text(String)
        case blob([UInt8])
        case null

        static func integer(_ number: Int64?) -> Value { number.map { .integer($0) } ?? .null }
        static func text(_ text: String?) -> Value { text.map { .text($0) } ?? .null }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        // The extended code (SQLITE_CONSTRAINT_UNIQUE…) and message, read before a reset could replace them.
        DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                      message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
    }

    /// SQLite copies the value at once (`SQLITE_TRANSIENT`): the Swift buffer does not outlive the call.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
