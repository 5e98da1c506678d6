/// Told when a write transaction opens and closes, on the thread that runs it.
///
/// A write transaction holds the database's one write lock, so the engine
/// promises it makes no system call but SQLite's: every stat, listing and
/// read of a photo happens before it opens (probes) or after it commits. A
/// test proves that promise with an observer that audits the system calls
/// made in between (`SystemCallAudit`).
public protocol WriteTransactionObserver: Sendable {
    func transactionBegan()
    func transactionEnded()
}
