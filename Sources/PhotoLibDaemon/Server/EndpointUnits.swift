import Dispatch
import Logging
import PhotoLibCore
import PhotoLibDesktop
import PhotoLibSystem

/// The systemd socket units (`photolibd-endpoint@VIEW.socket`) that hold apps'
/// endpoints while photolibd is stopped, so that an app connecting to its
/// endpoint starts the daemon, as `photolibd.socket` does for the main socket.
///
/// The daemon binds a new app's endpoint itself: a socket unit started now
/// could not pass its descriptor to the running daemon. As it stops, it hands
/// those endpoints over: it enables their units (they listen from the next
/// login on) and starts them (they listen now); the next start receives them
/// (`LISTEN_FDNAMES` `endpoint-VIEW`). A removed app's unit is stopped and
/// disabled. All through the user manager's own D-Bus socket
/// (`$XDG_RUNTIME_DIR/systemd/private`, as `systemctl --user` uses), and only
/// under a systemd user manager (`$MANAGERPID`); elsewhere (a daemon run by
/// hand, the system instance, the tests) this does nothing.
struct EndpointUnits: Sendable {
    let logger: Logger
    /// The user manager's private socket, when the daemon runs under one.
    let bus: String?
    private let queue = DispatchQueue(label: "photolibd endpoint units", qos: .utility)

    init(logger: Logger, environment: (String) -> String? = ProcessIdentity.environment) {
        self.logger = logger
        if environment("MANAGERPID") != nil, let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            bus = runtime + "/systemd/private"
        } else {
            bus = nil
        }
    }

    static func unitName(view: FileName) -> String {
        "photolibd-endpoint@\(String(decoding: view.bytes, as: UTF8.self)).socket"
    }

    /// As the daemon stops, after it closed and removed its own endpoints:
    /// systemd listens there from now on. Waits for the answers (bounded),
    /// so the units listen before the daemon has exited.
    func handOver(_ views: [FileName]) {
        guard let bus, !views.isEmpty else { return }
        let units = views.map(Self.unitName(view:))
        // No Reload: the enabled links are read at the next login, and a unit
        // instance is loaded from its template whether enabled or not. The
        // start waits (an implicit Before= on the service) until this daemon
        // has stopped; at logout it is cancelled, and the links serve next time.
        report(units: units, action: "hand over") { () throws(SystemdUnits.Unreachable) in try SystemdUnits.handOver(units, managerSocket: bus) }
    }

    /// A removed app's endpoint unit, or one no app owns any more: stopped
    /// (systemd removes the socket file) and disabled. In the background.
    func retire(_ views: [FileName]) {
        guard let bus, !views.isEmpty else { return }
        let units = views.map(Self.unitName(view:))
        queue.async {
            report(units: units, action: "retire") { () throws(SystemdUnits.Unreachable) in try SystemdUnits.retire(units, managerSocket: bus) }
        }
    }

    private func report(units: [String], action: String, _ outcome: () throws(SystemdUnits.Unreachable) -> SystemdUnits.Outcome) {
        do {
            let done = try outcome()
            if let first = done.firstFailure {
                logger.notice("Could not \(action) endpoint socket units: \(done.failedCalls) of \(units.count + 1) calls failed (\(first)); at logout this is expected, else check photolibd-endpoint@.socket is installed (make install).")
            } else {
                logger.info("Endpoint socket units: \(action) \(units.count).")
            }
        } catch {
            logger.warning("Could not \(action) endpoint socket units: \(error).")
        }
    }
}
