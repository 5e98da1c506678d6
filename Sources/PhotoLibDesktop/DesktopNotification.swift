import CBusLibrary
import CDesktopNotifications
import Glibc
import PhotoLibSystem

/// A notification on the person's desktop (`org.freedesktop.Notifications`, through sd-bus)
/// that they may click, and the connection that hears the click.
///
/// Blocking: show and wait on a thread of your own, never on an event loop.
public final class DesktopNotification {
    /// Why a notification could not be shown.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// What became of a notification.
    public enum Outcome: Sendable, Equatable {
        /// The person chose this action (`default`: they clicked the notification itself).
        case action(String)
        /// Closed, or not acted on in time.
        case closed
    }

    private let notifier: OpaquePointer
    public let id: UInt32
    /// True when the service offered the action (it lists "actions" in its capabilities).
    public let offersAction: Bool

    /// Shows a notification; with `action` (key, label), offers it where the service supports actions.
    public init(appName: String, icon: String, summary: String, body: String, action: (key: String, label: String)?) throws(Failure) {
        var why = [CChar](repeating: 0, count: 512)
        guard photolib_bus_ready(&why, why.count) == 1 else {
            throw Failure(description: "cannot reach the session bus: " + String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var opened: OpaquePointer?
        let status = photolib_notifier_open(&opened)
        guard status == 0, let opened else {
            throw Failure(description: "cannot connect to the session bus: \(String(cString: strerror(-status)))")
        }
        var error = [CChar](repeating: 0, count: 512)
        let capable = action == nil ? 0 : photolib_notifier_has_actions(opened, &error, error.count)
        let offered = capable > 0 ? action : nil
        var id: UInt32 = 0
        guard photolib_notifier_send(opened, appName, icon, summary, body, offered?.key, offered?.label, &id, &error, error.count) == 0 else {
            photolib_notifier_close(opened)
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        notifier = opened
        self.id = id
        offersAction = offered != nil
    }

    deinit { photolib_notifier_close(notifier) }

    /// Waits at most `seconds` for the person to act on it or close it; throws when the bus goes away.
    public func wait(seconds: Double) throws(SystemCallError) -> Outcome {
        var action = [CChar](repeating: 0, count: 128)
        let result = photolib_notifier_wait(notifier, id, UInt64(max(0, seconds) * 1_000_000), &action, action.count)
        if result < 0 { throw SystemCallError("sd_bus_wait", errno: -result) }
        return result == 1 ? .action(String(decoding: action.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) : .closed
    }
}
