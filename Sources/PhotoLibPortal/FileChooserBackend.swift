import Dispatch
import Foundation
import Logging
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibDesktop
import PhotoLibSystem

/// `org.freedesktop.impl.portal.FileChooser` for photolibd: an `OpenFile`
/// that asks for photos or videos becomes a one-time pick on the person's
/// page, answered with private, read-only copies that expire; every other
/// call goes, unchanged, to the backend the desktop used before
/// (`FileChooserRoute` decides which is which).
public final class FileChooserBackend: PortalBus.Handler, @unchecked Sendable {
    // @unchecked: `picks`, `bus` and `idleCheck` are guarded by `lock`.
    private let lock = NSLock()
    private var picks: [UInt64: PortalPick] = [:]
    /// Calls the app closed before their pick began (while the daemon was asked whether the app is registered).
    private var closedEarly: Set<UInt64> = []
    private var bus: PortalBus?
    private var idleCheck: DispatchWorkItem?
    private let settings: PortalSettings
    private let logger: Logger
    private var shelf: PickShelfKeeper!

    public init(settings: PortalSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Takes the bus name and serves until idle for `settings.idleSeconds` (or until the bus goes away).
    public func run() throws {
        let bus = try PortalBus(name: settings.busName, forwardTo: settings.forwardTo, handler: self)
        let logger = self.logger
        shelf = try PickShelfKeeper(directory: settings.shelfDirectory, keepSeconds: settings.keepSeconds, clock: settings.clock, ownerUID: settings.ownerUID,
                                    forget: { paths in
                                        do {
                                            try bus.forgetDocuments(paths)
                                        } catch {
                                            logger.warning("Cannot ask the Documents portal to drop the exports of an expired pick: \(error)")
                                        }
                                    },
                                    log: { logger.notice("\($0)") })
        lock.withLock { self.bus = bus }
        shelf.start()
        logger.notice("photolibd-portal serves \(settings.busName); other file dialogs go to \(settings.forwardTo); picks are kept \(settings.keepSeconds) s in \(settings.shelfDirectory).")
        scheduleIdleCheck()
        try bus.run()
        lock.withLock { self.bus = nil }
    }

    // MARK: PortalBus.Handler (on the bus's thread: nothing here blocks)

    public func openFile(call: UInt64, arguments: [UInt8]) -> Bool {
        let request: FileChooserCall
        do {
            request = try JSONDecoder().decode(FileChooserCall.self, from: Data(arguments))
        } catch {
            logger.warning("An OpenFile call could not be read (\(error)); it goes to \(settings.forwardTo) unchanged.")
            return false
        }
        guard let app = PortalApp.app(forPortalID: request.app) else {
            logger.notice("OpenFile from '\(request.app)' goes to \(settings.forwardTo): that ID cannot name a photolibd app.")
            return false
        }
        if request.directory {
            logger.notice("OpenFile from \(app) goes to \(settings.forwardTo): it asks for a folder.")
            return false
        }
        // Whether the app is registered is asked of the daemon, off this thread.
        lock.withLock { idleCheck?.cancel() }
        do {
            try DetachedThread.start { [self] in decide(call: call, request: request, app: app) }
        } catch {
            logger.error("Cannot start a thread for OpenFile from \(app) (\(error)); it goes to \(settings.forwardTo).")
            return false
        }
        return true
    }

    public func closed(call: UInt64) {
        let pick = lock.withLock {
            if picks[call] == nil { closedEarly.insert(call) }
            return picks[call]
        }
        pick?.end(.closedByApp)
    }

    public func log(level: Int, _ message: String) {
        switch level {
        case 0: logger.notice("\(message)")
        case 1: logger.warning("\(message)")
        default: logger.error("\(message)")
        }
    }

    // MARK: One call

    private func decide(call: UInt64, request: FileChooserCall, app: AppID) {
        let registered = request.filters.isEmpty && request.current == nil ? isRegistered(app) : false
        switch FileChooserRoute.decide(request, registered: registered) {
        case .forward(let reason):
            lock.withLock { _ = closedEarly.remove(call) }
            logger.notice("OpenFile from \(app) goes to \(settings.forwardTo) unchanged: \(reason).")
            do {
                try currentBus()?.forward(call: call)
            } catch {
                logger.error("Cannot pass OpenFile from \(app) on to \(settings.forwardTo): \(error)")
            }
        case .pick(let options):
            pick(call: call, app: app, options: options)
        }
        scheduleIdleCheck()
    }

    private func pick(call: UInt64, app: AppID, options: PickOptions) {
        let logger = self.logger
        let pick = PortalPick(call: call, app: app, options: options, settings: settings, log: { logger.notice("\($0)") })
        let closed = lock.withLock {
            picks[call] = pick
            return closedEarly.remove(call) != nil
        }
        if closed { pick.end(.closedByApp) }
        logger.notice("OpenFile from \(app) asks for \(options.typeNames.joined(separator: " or ")) (\(options.limit == 1 ? "one" : "several")): asking the person on their page.")
        let (ending, paths) = pick.run(shelf: shelf)
        lock.withLock { picks[call] = nil }
        let line = "OpenFile from \(app): \(ending.described); the app hears response \(ending.response)."
        if case .failed = ending { logger.error("\(line)") } else { logger.notice("\(line)") }
        do {
            try currentBus()?.reply(call: call, response: ending.response, uris: paths.map(PickShelf.fileURI(of:)))
        } catch {
            logger.error("Cannot answer OpenFile from \(app): \(error)")
        }
    }

    /// True when the person added the app to photolibd (then a call without filters is still a photo pick).
    private func isRegistered(_ app: AppID) -> Bool {
        do {
            let connection = try PhotoLibConnection(socketPath: settings.socket)
            return try connection.call(.apps, NoParams(), returning: AppsResult.self).apps.contains { $0.app == app.rawValue }
        } catch {
            logger.notice("Cannot ask photolibd whether \(app) is registered (\(error)); taken as not.")
            return false
        }
    }

    private func currentBus() -> PortalBus? { lock.withLock { bus } }

    /// Exits once nothing has happened for `idleSeconds`: no call open, no copy waiting to expire.
    private func scheduleIdleCheck() {
        let check = DispatchWorkItem { [weak self] in
            guard let self, let bus = self.currentBus() else { return }
            let busy = self.lock.withLock { !self.picks.isEmpty } || bus.openCalls > 0 || !self.shelf.isEmpty
            if busy {
                self.scheduleIdleCheck()
            } else {
                self.logger.notice("Idle for \(Int(self.settings.idleSeconds)) s with no pick waiting to expire: exiting (D-Bus starts it again when needed).")
                bus.stop()
            }
        }
        lock.withLock {
            idleCheck?.cancel()
            idleCheck = check
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + settings.idleSeconds, execute: check)
    }
}
