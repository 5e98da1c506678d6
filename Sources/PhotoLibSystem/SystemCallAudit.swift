import Glibc
public import PhotoLibCore
import Synchronization

/// Records every system call made through `systemCall` on a thread while one
/// of the store's write transactions is open there (it observes the store:
/// `WriteTransactionObserver`). For tests: what is recorded is a call that
/// should have been a probe before the transaction, or work after its commit.
public final class SystemCallAudit: WriteTransactionObserver {
    private let calls = Mutex<[String]>([])
    private let begun = Mutex(0)

    public init() {}

    /// The calls recorded so far, in order.
    public var callsInTransactions: [String] { calls.withLock { $0 } }

    /// How many write transactions began since the last reset: a change composed of others is one.
    public var transactions: Int { begun.withLock { $0 } }

    /// Forgets what was recorded (after a set-up the test does not judge).
    public func reset() {
        calls.withLock { $0.removeAll() }
        begun.withLock { $0 = 0 }
    }

    public func transactionBegan() {
        begun.withLock { $0 += 1 }
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    }

    public func transactionEnded() {
        pthread_setspecific(Self.key, nil)
    }

    /// Called by `systemCall` before each call: recorded when an audited transaction is open on this thread.
    static func note(_ name: String) {
        guard let current = pthread_getspecific(key) else { return }
        Unmanaged<SystemCallAudit>.fromOpaque(current).takeUnretainedValue().calls.withLock { $0.append(name) }
    }

    /// Which audit's transaction is open on each thread; nil on every thread outside the tests that use one.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
