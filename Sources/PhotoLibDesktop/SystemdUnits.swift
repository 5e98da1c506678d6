import CSystemdUnits
import Glibc
import PhotoLibSystem

/// Unit calls to a systemd manager over its private socket (sd-bus, in
/// CSystemdUnits), as `systemctl --user` makes them. Blocking: callers run it
/// off the daemon's event loops and actor.
public enum SystemdUnits {
    /// What came of a batch of calls.
    public struct Outcome: Sendable, Equatable {
        /// Calls the manager refused or did not answer in time.
        public let failedCalls: Int
        /// The first failure, in words.
        public let firstFailure: String?
    }

    /// Why the manager could not be asked at all.
    public struct Unreachable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Enables the units and starts each.
    public static func handOver(_ units: [String], managerSocket: String, timeoutSeconds: Double = 5) throws(Unreachable) -> Outcome {
        try run(units) { pointers, failure in
            photolib_units_hand_over(managerSocket, pointers, units.count, UInt64(timeoutSeconds * 1_000_000), failure, 512)
        }
    }

    /// Stops each unit and disables them.
    public static func retire(_ units: [String], managerSocket: String, timeoutSeconds: Double = 5) throws(Unreachable) -> Outcome {
        try run(units) { pointers, failure in
            photolib_units_retire(managerSocket, pointers, units.count, UInt64(timeoutSeconds * 1_000_000), failure, 512)
        }
    }

    private static func run(_ units: [String],
                            _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<CChar>) -> Int32) throws(Unreachable) -> Outcome {
        let copies = units.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var failure = [CChar](repeating: 0, count: 512)
        let status = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
            failure.withUnsafeMutableBufferPointer { body(pointers.baseAddress, $0.baseAddress!) }
        }
        let words = String(decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if status < 0 { throw Unreachable(description: words.isEmpty ? String(cString: strerror(-status)) : words) }
        return Outcome(failedCalls: Int(status), firstFailure: status > 0 ? words : nil)
    }
}
