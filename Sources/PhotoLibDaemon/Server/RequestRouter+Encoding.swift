import PhotoLibConfiguration
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

// Reading a request's parameters and writing its answer.
extension RequestRouter {
    func status() throws -> StatusResult {
        let snapshot = board.snapshot
        let counts = try statusCounts.counts(at: store.generation) {
            try store.read { tx in StatusCounts.Counts(assets: try tx.assetCount(), albums: try tx.albumCount(), apps: try tx.appCount()) }
        }
        return StatusResult(
            version: version, pid: ProcessIdentity.processID, library: configuration.library, views: configuration.views,
            socket: configuration.socket,
            state: snapshot.reportedState,
            scannedDirectories: snapshot.scannedDirectories, scannedFiles: snapshot.scannedFiles,
            assets: counts.assets, albums: counts.albums, apps: counts.apps, watches: snapshot.watches, failedWatches: snapshot.failedWatches,
            unreadable: snapshot.unreadable.isEmpty ? nil : snapshot.unreadable.map(\.escaped),
            derivatives: snapshot.derivatives, derivativeBytes: snapshot.derivativeBytes,
            withheldFromNoLocation: snapshot.withheldFromNoLocation,
            viewMode: snapshot.viewMode?.form.rawValue, viewModeReason: snapshot.viewMode?.reason, watcherDown: snapshot.watcherDown,
            fuseViews: snapshot.fuse.map { if case .unavailable(let reason) = $0 { reason } else { "available" } },
            rounds: snapshot.rounds.map {
                RoundsInfo(reason: $0.reason, directories: $0.directories, files: $0.files, intervalSeconds: $0.intervalSeconds,
                           lastRoundAt: $0.lastRoundAt, lastRoundMilliseconds: $0.lastRoundMilliseconds, lastFailure: $0.lastFailure)
            },
            unavailable: snapshot.outage.map { LibraryUnavailable(since: $0.since, reason: $0.reason) })
    }

    func appInfo(_ record: AppRecord, _ tx: StoreTransaction) throws -> AppInfo {
        AppInfo(
            app: record.id.rawValue, uid: record.uid, purpose: record.purpose,
            readWrite: record.readWrite.rawValue, addOnly: record.addOnly.rawValue,
            view: record.viewPath(views: configuration.views, pictures: configuration.flatpakPictures),
            endpoint: endpoints.path(of: record),
            inbox: record.path(under: configuration.inboxes),
            selectedAssets: try tx.selectedAssetRowIDs(record.id).count,
            selectedAlbums: try tx.selectedAlbums(record.id).count,
            readWriteEnd: try tx.authorizationEnd(record.id, access: .readWrite).map { ($0.endsAt, $0.returnsTo.rawValue) },
            addOnlyEnd: try tx.authorizationEnd(record.id, access: .addOnly).map { ($0.endsAt, $0.returnsTo.rawValue) },
            location: record.location.rawValue, flatpak: record.flatpakPictures ? true : nil,
            captions: SharingChoice.captionsWord(record.captions), entries: entries(of: record))
    }

    /// How the app's view holds its photos: a Flatpak Pictures folder's form (`PicturesFolderForm`),
    /// or the views' form; nil for a Flatpak app whose folder holds nothing of photolibd's.
    func entries(of record: AppRecord) -> AppEntries? {
        guard record.flatpakPictures else {
            guard let mode = board.snapshot.viewMode else { return nil }
            // Views of references: served through FUSE onto the app's view directory, or copies, and why.
            guard mode.form == .references else { return AppEntries(form: mode.form.rawValue) }
            switch board.snapshot.picturesForms[record.id] {
            case .copies(let reason)?: return AppEntries(form: "copies", reason: reason)
            case .mirror?: return AppEntries(form: "fuse")
            case .clones?, nil: return AppEntries(form: "references")
            }
        }
        guard record.heldLayout == .limited, let form = board.snapshot.picturesForms[record.id] else { return nil }
        if case .copies(let reason) = form { return AppEntries(form: form.name, reason: reason) }
        return AppEntries(form: form.name)
    }

    func locationPolicy(_ text: String?) throws -> LocationPolicy? {
        guard let text else { return nil }
        guard let policy = LocationPolicy(rawValue: text) else { throw PhotoLibError.invalidLocationPolicy(text) }
        return policy
    }

    /// The access level a request names (`readWrite` when it names none).
    func accessLevel(_ text: String?) throws(PhotoLibError) -> AccessLevel {
        guard let text else { return .readWrite }
        guard let level = AccessLevel(spelling: text) else { throw .invalidAccessLevel(text) }
        return level
    }

    /// Opens and closes endpoints to match the registered apps.
    /// Brings the apps' endpoints in line with the apps registered (at start and after a rescan). A store
    /// that cannot be read leaves them as they were, and says so to the caller: never taken for "no apps".
    func syncEndpoints() async throws {
        await endpoints.sync(try store.read { try $0.apps() })
    }

    func appID(_ text: String) throws(PhotoLibError) -> AppID {
        try AppID.parse(text)
    }

    func params<P: Codable & Sendable>(_ type: P.Type, _ line: [UInt8]) throws(PhotoLibError) -> P {
        do {
            return try coder.decode(Request<P>.self, from: line).params
        } catch {
            throw .invalidParameter(name: "params", reason: MessageCoder.describe(error))
        }
    }

    func reply<R: Codable & Sendable>(_ id: RequestID?, _ result: R) -> [UInt8] {
        encode(Reply(id: id, result: result))
    }

    func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Our own reply types always encode; were one not to, the client hears an error, never nothing.
        (try? coder.encodeLine(value)) ?? Array("{\"error\":{\"code\":\"internal\",\"message\":\"The reply could not be encoded.\"}}\n".utf8)
    }
}
