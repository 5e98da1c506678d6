import PhotoLibCore
import PhotoLibProtocol

/// What the router asks the engine to change, one method per change a person or an app asks for,
/// each taking the engine's turn for it. `EngineChanges` is the daemon's; a test of the router gives
/// a fake that records what it was asked, and needs no engine, library or views.
///
/// The router decodes and checks a request (its IDs, names, times and choices) before it calls one
/// of these: what reaches the engine is typed, never a person's text.
protocol LibraryChanges: Sendable {
    func addApp(_ app: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool) async throws -> AppRecord
    func setLocation(_ app: AppID, _ policy: LocationPolicy) async throws -> AppRecord
    func setCaptions(_ app: AppID, shared: Bool) async throws -> AppRecord
    func removeApp(_ app: AppID) async throws
    func authorize(_ app: AppID, access: AccessLevel, status: AuthorizationStatus, by: EventActor, endsAt: Int64?,
                   confirmed: Bool) async throws -> AppRecord
    func editSelection(_ app: AppID, _ named: NamedItems, adding: Bool, by: EventActor, endsAt: Int64?) async throws -> Engine.SelectionEditOutcome
    func addRule(_ app: AppID, from: Int64, to: Int64, mediaType: MediaType?) async throws -> CaptureRule
    func removeRules(_ app: AppID, ids: [Int64]?) async throws -> [CaptureRule]
    /// An app asks the person; `waiter` hears the answer when the person gives it.
    func ask(_ app: AppID, kind: RequestKind, waiter: RequestAnswers.Waiter?) async throws -> RequestOutcome
    /// An app asks the person to pick; `waiter` is handed the files.
    func askPick(_ app: AppID, options: PickOptions, notify: Bool, waiter: PickWaiter) async throws
    func answer(_ request: Int64, with answer: RequestAnswer, _ named: NamedItems, by: EventActor, reason: CancelReason?) async throws -> RequestOutcome
    func answerPick(_ request: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) async throws -> RequestOutcome
    /// The library walked afresh; `rewatch` has the watcher rebuild its watches first.
    func rescan(rewatch: @escaping @Sendable () -> Void) async throws
    /// Installed Flatpak apps, whether each is registered and running.
    func installedApps() async throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)]
    /// Whether a Flatpak app of this ID is installed (an app chosen by the ID it is listed under).
    func isInstalledFlatpak(_ app: AppID) throws -> Bool
    /// The picks a connection waits for, withdrawn: it left.
    func withdrawPicks(of connection: ObjectIdentifier) async
}

/// The engine as the router's `LibraryChanges`: each call one `Engine.change`, in the engine's turn.
struct EngineChanges: LibraryChanges {
    let engine: Engine

    func addApp(_ app: AppID, uid: UInt32, purpose: String, location: LocationPolicy, flatpak: Bool) async throws -> AppRecord {
        try await engine.change { try $0.addApp(app, uid: uid, purpose: purpose, location: location, flatpak: flatpak) }
    }

    func setLocation(_ app: AppID, _ policy: LocationPolicy) async throws -> AppRecord {
        try await engine.change { try $0.setLocation(app, policy) }
    }

    func setCaptions(_ app: AppID, shared: Bool) async throws -> AppRecord {
        try await engine.change { try $0.setCaptions(app, shared: shared) }
    }

    func removeApp(_ app: AppID) async throws {
        try await engine.change { try $0.removeApp(app) }
    }

    func authorize(_ app: AppID, access: AccessLevel, status: AuthorizationStatus, by: EventActor, endsAt: Int64?,
                   confirmed: Bool) async throws -> AppRecord {
        try await engine.change { try $0.authorize(app, access: access, status: status, by: by, endsAt: endsAt, confirmed: confirmed).record }
    }

    func editSelection(_ app: AppID, _ named: NamedItems, adding: Bool, by: EventActor, endsAt: Int64?) async throws -> Engine.SelectionEditOutcome {
        try await engine.change { try $0.editSelection(app, named, adding: adding, by: by, endsAt: endsAt) }
    }

    func addRule(_ app: AppID, from: Int64, to: Int64, mediaType: MediaType?) async throws -> CaptureRule {
        try await engine.addRule(app, from: from, to: to, mediaType: mediaType)
    }

    func removeRules(_ app: AppID, ids: [Int64]?) async throws -> [CaptureRule] {
        try await engine.change { try $0.removeRules(app, ids: ids) }
    }

    func ask(_ app: AppID, kind: RequestKind, waiter: RequestAnswers.Waiter?) async throws -> RequestOutcome {
        try await engine.change { try $0.ask(app, kind: kind, waiter: waiter) }
    }

    func askPick(_ app: AppID, options: PickOptions, notify: Bool, waiter: PickWaiter) async throws {
        _ = try await engine.change { try $0.askPick(app, options: options, notify: notify, waiter: waiter) }
    }

    func answer(_ request: Int64, with answer: RequestAnswer, _ named: NamedItems, by: EventActor, reason: CancelReason?) async throws -> RequestOutcome {
        try await engine.change { try $0.answer(request, with: answer, named, by: by, reason: reason) }
    }

    func answerPick(_ request: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) async throws -> RequestOutcome {
        try await engine.answerPick(request, named, location: location, captions: captions)
    }

    func rescan(rewatch: @escaping @Sendable () -> Void) async throws {
        try await engine.rescan { rewatch() }
    }

    func installedApps() async throws -> [(app: InstalledFlatpakApp, registered: Bool, running: Bool)] {
        try await engine.installedApps()
    }

    func isInstalledFlatpak(_ app: AppID) throws -> Bool {
        try engine.flatpak.isInstalled(app)
    }

    func withdrawPicks(of connection: ObjectIdentifier) async {
        await engine.withdrawPicks(of: connection)
    }
}
