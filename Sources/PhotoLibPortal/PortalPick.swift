import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// One `OpenFile` answered with a pick: asks photolibd, as the library's
/// owner, to pick for the calling app; opens the request's sheet on the
/// person's page as soon as the daemon has made it; and, once the person has
/// answered, copies what they chose to the shelf.
///
/// Blocking: each runs on a thread of its own. `end(_:)` (the app closed the
/// dialog, or the sheet's time ran out) ends the connection, and so the
/// daemon withdraws the pick: none is left pending.
final class PortalPick: @unchecked Sendable {
    // @unchecked: `connection` and `ending` are guarded by `lock`.
    private let lock = NSLock()
    private var interrupter: PhotoLibConnection.Interrupter?
    private var ending: PortalEnding?

    let call: UInt64
    let app: AppID
    let options: PickOptions
    private let settings: PortalSettings
    private let log: @Sendable (String) -> Void

    init(call: UInt64, app: AppID, options: PickOptions, settings: PortalSettings, log: @escaping @Sendable (String) -> Void) {
        self.call = call
        self.app = app
        self.options = options
        self.settings = settings
        self.log = log
    }

    /// Ends the pick from another thread, for this reason (the first reason given wins).
    func end(_ reason: PortalEnding) {
        lock.lock()
        if ending == nil { ending = reason }
        let interrupter = self.interrupter
        lock.unlock()
        interrupter?.interrupt()
    }

    private var endedFor: PortalEnding? {
        lock.lock()
        defer { lock.unlock() }
        return ending
    }

    /// Asks, waits, copies. Returns how it ended and, when the person chose, the copies' paths.
    func run(shelf: PickShelfKeeper) -> (PortalEnding, [String]) {
        let connection: PhotoLibConnection
        do {
            connection = try PhotoLibConnection(socketPath: settings.socket)
        } catch .daemonNotRunning(let socket) {
            return (.daemonNotRunning(socket: socket), [])
        } catch {
            return (.failed("cannot reach photolibd at \(settings.socket): \(error)"), [])
        }
        lock.lock()
        interrupter = connection.interrupter
        let endedEarly = ending
        lock.unlock()
        if let endedEarly { return (endedEarly, []) }

        let sheet = SheetWatcher(app: app, socket: settings.socket, log: log)
        do {
            try sheet.start()
        } catch {
            return (.failed("cannot follow photolibd's requests to open the sheet: \(error)"), [])
        }
        defer { sheet.stop() }
        let timeout = DispatchWorkItem { [self] in end(.timedOut(seconds: settings.sheetSeconds)) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(settings.sheetSeconds), execute: timeout)
        defer { timeout.cancel() }

        let picked: PickedFiles
        do {
            picked = try pickRegistering(connection)
        } catch {
            if let ending = endedFor { return (ending, []) }
            if case .connectionLost = error { return (.failed("photolibd closed the connection (did it stop?)"), []) }
            return (.failed("photolibd refused the pick: \(error)"), [])
        }
        if picked.result.state == RequestState.cancelled.rawValue {
            let closed = picked.result.reason == CancelReason.pageClosed.rawValue
            return (endedFor ?? (closed ? .pageClosed : .cancelled), [])
        }
        var files: [(name: String, descriptor: Int32)] = []
        var position = 0
        for asset in picked.result.assets {
            for file in asset.files {
                files.append((file.name, picked.handles[position].fileDescriptor))
                position += 1
            }
        }
        do {
            let stored = try shelf.store(files)
            log("\(app)'s pick: \(stored.paths.count) files kept until they expire, \(stored.namedInPlace) of them the daemon's private copies named in place, \(stored.paths.count - stored.namedInPlace) copied.")
            return (.picked(files: stored.paths.count), stored.paths)
        } catch {
            return (.failed("the chosen files could not be copied to \(settings.shelfDirectory): \(error)"), [])
        }
    }

    /// The pick, adding the app to photolibd first when the person has never seen it.
    private func pickRegistering(_ connection: PhotoLibConnection) throws(PhotoLibError) -> PickedFiles {
        do {
            return try connection.pick(app: app.rawValue, types: options.types, limit: options.limit, notify: false, accepts: options.accepts)
        } catch .remote(let code, _) where code == "unknownApp" {
            _ = try connection.call(.addApp, AddAppParams(app: app.rawValue, uid: settings.ownerUID, purpose: PortalApp.purpose(for: app),
                                                          location: LocationPolicy.none.rawValue),
                                    returning: AppInfo.self)
            log("\(app) asked for photos through the file chooser for the first time: added to photolibd, without location, with nothing shared.")
            return try connection.pick(app: app.rawValue, types: options.types, limit: options.limit, notify: false, accepts: options.accepts)
        }
    }
}

/// Follows photolibd's admin events on a connection of its own until the
/// app's pick appears, then opens that request's sheet on the page.
/// (The pick call itself returns only when the person has answered.)
final class SheetWatcher: @unchecked Sendable {
    // @unchecked: the connection is used by the watcher thread only; `interrupter` is immutable once set.
    private let app: AppID
    private let socket: String
    private let log: @Sendable (String) -> Void
    private var interrupter: PhotoLibConnection.Interrupter?

    init(app: AppID, socket: String, log: @escaping @Sendable (String) -> Void) {
        self.app = app
        self.socket = socket
        self.log = log
    }

    /// Subscribes before the pick is asked, so its `request` event cannot be missed.
    func start() throws(PhotoLibError) {
        let connection = try PhotoLibConnection(socketPath: socket)
        _ = try connection.subscribe(app: nil, since: nil)
        interrupter = connection.interrupter
        let (app, socket, log) = (self.app, self.socket, self.log)
        let reader = UncheckedBox(connection)
        do {
            try DetachedThread.start {
                while true {
                    let event: ReceivedEvent
                    do {
                        event = try reader.value.nextEvent()
                    } catch {
                        return  // stopped, or the daemon went away: the pick call hears of it too
                    }
                    guard event.head.event == "request", let request = try? event.decode(RequestEvent.self),
                          request.app == app.rawValue, request.kind == "pick", request.state == RequestState.pending.rawValue else { continue }
                    do {
                        let pageLog = try PageOpener.open(request: request.request, socket: socket)
                        log("Request \(request.request): opened its sheet on the person's page (photolibctl ui; its output: \(pageLog)).")
                    } catch {
                        log("Request \(request.request): cannot open its sheet on the page (\(error)); it waits in 'photolibctl requests'.")
                    }
                    return
                }
            }
        } catch {
            throw .systemCall(name: error.call, path: socket, errno: error.errno)
        }
    }

    func stop() { interrupter?.interrupt() }
}

/// Hands a non-Sendable value to the one thread that uses it from then on.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
