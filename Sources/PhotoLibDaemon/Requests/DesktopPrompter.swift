import Dispatch
import Logging
import PhotoLibCore
import PhotoLibSystem

/// Tells the person on their desktop that an app asks: one notification
/// through the session bus's `org.freedesktop.Notifications` (what
/// `notify-send` does). Where there is no bus or no notification service, the
/// request still waits in `photolibctl requests` and `request` events; the
/// daemon logs why no notification was shown and carries on.
final class DesktopPrompter: Sendable {
    private let logger: Logger
    /// One at a time, off the engine: a bus that does not answer delays only other notifications.
    private let queue = DispatchQueue(label: "photolibd desktop prompter", qos: .utility)

    init(logger: Logger) {
        self.logger = logger
    }

    func announce(_ request: AccessRequest, purpose: String) {
        let summary = RequestNotice.summary(request)
        let body = RequestNotice.body(request, purpose: purpose)
        let logger = self.logger
        queue.async {
            do {
                let socket = try DBusClient.sessionBusSocket(environment: ProcessIdentity.environment)
                try DBusClient.call(
                    socketPath: socket, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", member: "Notify",
                    arguments: [.string("photolibd"), .uint32(0), .string("dialog-question"), .string(summary), .string(body),
                                .stringArray([]), .emptyDictionary, .int32(-1)])
                logger.info("Request \(request.id): the person was notified on the desktop.")
            } catch {
                logger.info("Request \(request.id): no desktop notification (\(error)); it waits in 'photolibctl requests'.")
            }
        }
    }
}
