import Foundation
import Logging
import PhotoLibCore
import PhotoLibDesktop
import PhotoLibSystem

/// Tells the person on their desktop that an app asks: one notification
/// through the session bus's `org.freedesktop.Notifications`. Where the
/// notification service offers actions, it carries "Review on Your Photos
/// Page", which opens the request's sheet (`photolibctl ui --request N`); its
/// text names that command everywhere. Where there is no bus or no
/// notification service, the request still waits in `photolibctl requests`
/// and `request` events; the daemon logs why no notification was shown.
final class DesktopPrompter: Sendable {
    /// How long a notification's action is listened for (the service may keep it that long).
    static let listenSeconds: Double = 3600

    private let logger: Logger
    private let socket: String

    init(logger: Logger, socket: String) {
        self.logger = logger
        self.socket = socket
    }

    func announce(_ request: AccessRequest, purpose: String) {
        let summary = RequestNotice.summary(request)
        let body = RequestNotice.body(request, purpose: purpose)
        let (logger, socket) = (self.logger, self.socket)
        // A thread of its own, off the engine: it waits for the click, and a bus that does not answer delays nothing else.
        let thread = Thread {
            let notification: DesktopNotification
            do {
                notification = try DesktopNotification(appName: "photolibd", icon: "dialog-question", summary: summary, body: body,
                                                       action: (key: "open-page", label: "Review on Your Photos Page"))
            } catch {
                logger.info("Request \(request.id): no desktop notification (\(error)); it waits in 'photolibctl requests'.")
                return
            }
            logger.info("Request \(request.id): the person was notified on the desktop\(notification.offersAction ? ", with a button that opens the page" : "").")
            guard notification.offersAction else { return }
            let outcome: DesktopNotification.Outcome
            do {
                outcome = try notification.wait(seconds: Self.listenSeconds)
            } catch {
                logger.info("Request \(request.id): stopped listening for a click on its notification (\(error)).")
                return
            }
            guard case .action = outcome else { return }
            Self.openPage(request: request.id, socket: socket, logger: logger)
        }
        thread.name = "photolibd notification \(request.id)"
        thread.start()
    }

    /// Opens the request's sheet on the page (`PageOpener`).
    static func openPage(request: Int64, socket: String, logger: Logger) {
        do {
            let log = try PageOpener.open(request: request, socket: socket)
            logger.notice("Request \(request): the notification was clicked; opening its sheet on the page (photolibctl ui; its output: \(log)).")
        } catch {
            logger.warning("Request \(request): the notification was clicked, but its sheet cannot be opened: \(error).")
        }
    }
}
