import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore

// What the router asks the engine to change (`LibraryChanges`), each request checked and typed
// first, and the reply read back from the store.
extension RequestRouter {
    /// `apps.installed`: the installed Flatpak apps, registered or not.
    func installedApps() async throws -> InstalledAppsResult {
        let apps = try await changes.installedApps()
        return InstalledAppsResult(apps: apps.map { InstalledAppInfo($0.app, registered: $0.registered, running: $0.running) })
    }

    /// `app.add`: registers an app, and opens its endpoint.
    func addApp(_ p: AddAppParams) async throws -> AppInfo {
        let app = try appID(p.app)
        let location = try locationPolicy(p.location) ?? .newAppDefault
        let record = try await changes.addApp(app, uid: p.uid, purpose: p.purpose ?? "", location: location, flatpak: p.flatpak ?? false)
        await endpoints.ensure(record)
        return try store.read { try appInfo(record, $0) }
    }

    /// `app.set`: an app's location policy and captions.
    func setApp(_ p: SetAppParams) async throws -> AppInfo {
        let app = try appID(p.app)
        var record: AppRecord?
        if let location = try locationPolicy(p.location) {
            record = try await changes.setLocation(app, location)
        }
        if let captions = p.captions {
            guard let shared = SharingChoice.captionsSetting(captions) else {
                throw PhotoLibError.invalidParameter(name: "captions", reason: "'\(captions)' is not one of shared, removed")
            }
            record = try await changes.setCaptions(app, shared: shared)
        }
        guard let shown = try record ?? store.read({ try $0.app(app) }) else { throw PhotoLibError.unknownApp(app) }
        return try store.read { try appInfo(shown, $0) }
    }

    /// `app.remove`: forgets an app, its endpoint and its connections' role.
    func removeApp(_ app: AppID) async throws -> EmptyResult {
        try await changes.removeApp(app)
        await endpoints.remove(app)
        // Its connections lose their role now, not when they next reconnect.
        connections.closeConnections(of: app)
        return EmptyResult()
    }

    /// `authorize`: an app's status for an access level, for good or for a while; an installed Flatpak app
    /// not registered yet is registered on the way.
    func authorize(_ p: AuthorizeParams, by: EventActor) async throws -> AppInfo {
        guard let status = AuthorizationStatus(spelling: p.status) else { throw PhotoLibError.invalidStatus(p.status) }
        let level = try accessLevel(p.access)
        let endsAt = try GrantEnd.expiry(now: clock.now(), forSeconds: p.forSeconds, until: p.until)
        let app = try appID(p.app)
        // An installed Flatpak app is chosen by its ID, as the person sees it listed: registered on the way.
        if try store.read({ try $0.app(app) }) == nil, try changes.isInstalledFlatpak(app) {
            await endpoints.ensure(try await changes.addApp(app, uid: 0, purpose: "", location: .newAppDefault, flatpak: true))
        }
        let record = try await changes.authorize(app, access: level, status: status, by: by, endsAt: endsAt, confirmed: p.confirm ?? false)
        return try store.read { try appInfo(record, $0) }
    }

    /// `select` and `deselect`: photos and albums given or taken back, for good or (given) for a while;
    /// with a capture-date range or rule IDs, rule grants (`editRules`).
    func editSelection(_ p: SelectionEditParams, adding: Bool, by: EventActor) async throws -> SelectionEditResult {
        if p.takenFrom != nil || p.takenTo != nil || p.rules != nil || p.allRules == true {
            return try await editRules(p, adding: adding, by: by)
        }
        let endsAt = try GrantEnd.expiry(now: clock.now(), forSeconds: p.forSeconds, until: p.until)
        if !adding, endsAt != nil {
            throw PhotoLibError.invalidParameter(name: "for", reason: "a deselection takes effect at once; give --for or --until to select")
        }
        let app = try appID(p.app)
        let named = try NamedItems(assets: p.assets ?? [], albums: p.albums ?? [], library: configuration.library)
        let changed = try await changes.editSelection(app, named, adding: adding, by: by, endsAt: endsAt)
        return SelectionEditResult(
            assets: changed.assets.map(\.rawValue), albums: changed.albums.map(\.escaped),
            refused: changed.refused.isEmpty ? nil : try store.read { tx in
                let albums = try tx.albumTree()
                return changed.refused.map { AssetInfo($0, albums: albums) }
            })
    }

    /// `answer`: the person's answer to a request, a pick's files included.
    func answer(_ p: AnswerParams, by: EventActor) async throws -> RequestOutcome {
        guard let answer = RequestAnswer(rawValue: p.answer) else { throw PhotoLibError.invalidAnswer(p.answer) }
        if answer == .pick {
            if !(p.albums ?? []).isEmpty {
                throw PhotoLibError.invalidParameter(name: "albums", reason: "a pick hands over files, so it is answered with assets, not albums")
            }
            let named = try NamedItems(assets: p.assets ?? [], library: configuration.library)
            return try await changes.answerPick(p.request, named, location: p.location, captions: p.captions)
        }
        let reason = try CancelReason.parse(p.reason, answer: answer)
        let (request, named) = (p.request, try NamedItems(assets: p.assets ?? [], albums: p.albums ?? [], library: configuration.library))
        return try await changes.answer(request, with: answer, named, by: by, reason: reason)
    }

    /// `rescan`: the library walked afresh, the watches rebuilt first, the endpoints brought in line after.
    func rescan() async throws -> RescanResult {
        let started = ContinuousClock.now
        try await changes.rescan { [watcher] in watcher.requestRewatch() }
        try await syncEndpoints()
        let snapshot = board.snapshot
        return RescanResult(
            assets: snapshot.scannedFiles, directories: snapshot.scannedDirectories, failedWatches: snapshot.failedWatches,
            seconds: (ContinuousClock.now - started) / .seconds(1))
    }
}
