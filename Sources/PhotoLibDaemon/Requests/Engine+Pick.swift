import Dispatch
import Glibc
import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibProtocol
import PhotoLibStore
import PhotoLibSystem

/// A pick the person answered, with its files open, ready to hand over.
struct PreparedPick: Sendable {
    let request: AccessRequest
    let waiter: PickWaiter
    let deliveries: [PickPolicy.Delivery]
    /// The app's own asset IDs, which it is told.
    let ids: AppAssetIDs?
    /// One per delivered member, in order: the original (or its derivative without location)
    /// and the original's album directory, to make a copy in.
    let opened: [OpenedMember]
    /// What the files' metadata loses on the way (serial numbers; captions and people unless shared).
    let removal: MetadataRemoval
    /// Whether location leaves with them: when not, a JPEG made for the app is checked for none.
    let locationAllowed: Bool

    struct OpenedMember: Sendable {
        let member: LocatedMember
        /// The original, or its derivative without location.
        let original: FileDescriptor
        /// Its size (a derivative's differs from the original's).
        let size: Int64
        /// The original's directory, where a copy is made.
        let copyDirectory: FileDescriptor
        /// The app runs as the owner: it gets a private copy even of a file that loses nothing.
        let mustCopy: Bool
        /// As it is, or as a JPEG made from it (`FormatDecision`).
        let format: FormatDecision
    }

    /// One file handed over: what the app receives, its size, and whether it is a copy.
    struct Handed {
        let fd: FileDescriptor
        let size: Int64
        let copied: Bool
        /// The original's type, when this is a JPEG made from it.
        var converted: String?
    }

    func closeAll() {
        for file in opened {
            file.original.close()
            file.copyDirectory.close()
        }
    }
}

/// The one-time pick (PHPickerViewController): an app asks, the person
/// chooses, and the app receives the chosen files as descriptors over its
/// connection, once. No view entry is made and no grant is kept; each pick
/// is written to the access log. The rules are `PickPolicy`'s.
extension Engine {
    /// An app asks to pick; the reply comes through `waiter` when the person answers.
    func askPick(_ app: AppID, options: PickOptions, notify: Bool = true, waiter: PickWaiter) throws -> Int64 {
        let made = try store.write { tx in try requests.askPick(app, options: options, now: clock.now(), tx: tx) }
        let request = made.request
        requests.picks.register(request.id, waiter)
        try settle(try requests.settling(pick: made, announce: notify && waiter.isOpen(), journal: journal))
        // The connection may have closed while this was on its way here, after its close withdrew what it
        // had: withdraw this one too (a prompt shown meanwhile is taken down by the withdrawal's event).
        if !waiter.isOpen() {
            withdrawPicksNow(of: waiter.connection)
            return request.id
        }
        logger.notice("App \(app) asks \(request.kind.described) (request \(request.id)\(notify ? "" : ", its sheet opened by the caller")); answer with 'photolibctl answer \(request.id) ASSET…' or 'cancel'.")
        return request.id
    }

    /// The person's choice for a pending pick: checks it, opens the files (or
    /// private copies), hands them to the app's connection, and logs the pick.
    /// Nothing is handed over unless all of it can be; on a mistake the pick
    /// stays pending so the person can answer again.
    /// `location` and `captions` are the person's choices for this pick (`SharingChoice`); nil takes the app's settings.
    nonisolated func answerPick(_ requestID: Int64, _ named: NamedItems, location: Bool? = nil, captions: Bool? = nil) async throws -> RequestOutcome {
        let prepared = try await change { try $0.preparePick(requestID, named, location: location, captions: captions) }
        let files: [PreparedPick.Handed]
        do {
            // On a Dispatch thread: a copy without reflinks takes as long as the
            // file is big, and must not hold one of Swift's few task threads.
            let fallback = configuration.state
            files = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(with: Result { try Self.descriptors(for: prepared, fallback: fallback) })
                }
            }
        } catch {
            await putBack(prepared)
            throw error
        }
        var handed = files.makeIterator()
        let result = PickResult(request: requestID, state: "picked", assets: prepared.deliveries.map { delivery in
            PickedAsset(id: (prepared.ids?.id(for: delivery.asset.id) ?? delivery.asset.id).rawValue, mediaType: delivery.asset.mediaType.rawValue, files: delivery.members.map { member in
                let file = handed.next()
                let name = member.path.lastComponent?.escaped ?? member.path.escaped
                return PickedFile(name: file?.converted == nil ? name : FormatDecision.jpegName(name), mediaType: member.mediaType.rawValue,
                                  size: file?.size ?? member.file.size, mtime: member.file.modificationTime, copy: file?.copied == true ? true : nil,
                                  converted: file?.converted)
            })
        })
        do {
            try await prepared.waiter.deliver(result, files.map(\.fd))
        } catch {
            await withdrawWhenReady(prepared.request)
            throw PhotoLibError.pick(.appGone(app: prepared.request.app))
        }
        return try await change { try $0.finishPick(prepared) }
    }

    /// Checks the person's choice and opens every file, on the actor (the index is read here).
    fileprivate func preparePick(_ requestID: Int64, _ named: NamedItems, location: Bool?, captions: Bool?) throws -> PreparedPick {
        guard let request = try store.read({ try $0.request(id: requestID) }) else { throw PhotoLibError.unknownRequest(requestID) }
        _ = try RequestPolicy.effect(of: .pick, to: request.kind, namesItems: !named.isEmpty)
        guard let options = request.kind.pickOptions else { throw PhotoLibError.unknownRequest(requestID) }
        let chosen = try resolve(named).assets.map { record in
            guard let located = index.locate(record) else { throw PhotoLibError.unknownAsset(record.id.rawValue) }
            return located
        }
        let deliveries = try PickPolicy.deliveries(chosen: chosen, options: options)
        guard let waiter = requests.picks.claim(requestID) else {
            // Its connection closed a moment ago; the close withdraws it.
            throw PhotoLibError.pick(.appGone(app: request.app))
        }
        let copies = !PickPolicy.sharesOriginal(peerUID: waiter.peerUID, ownerUID: ownerUID)
        let sharing: SharingChoice
        let appRecord: AppRecord
        do {
            guard let record = try store.read({ try $0.app(request.app) }) else { throw PhotoLibError.unknownApp(request.app) }
            appRecord = record
            sharing = try SharingChoice.answer(location: location, captions: captions, app: record)
        } catch {
            requests.picks.register(requestID, waiter)
            throw error
        }
        var opened: [PreparedPick.OpenedMember] = []
        defer { index.access.invalidate() }
        do {
            defer {
                // Checks made here; not storing them only means looking again, but say so.
                do {
                    try settle(ChangeSet())
                } catch {
                    logger.warning("Cannot store the location checks made for a pick: \(error); those files are looked at again.")
                }
            }
            for delivery in deliveries {
                for (member, format) in zip(delivery.members, delivery.formats) {
                    let (original, size) = try withoutLocation(try openOriginal(member, asset: delivery.asset.id), member,
                                                               asset: delivery.asset.id, policy: sharing.locationPolicy)
                    let directory: FileDescriptor
                    do {
                        directory = try Directory.open(member.path.parent ?? .root, in: index.access.root)
                    } catch {
                        original.close()
                        throw PhotoLibError.pick(.cannotOpen(asset: delivery.asset.id.rawValue, path: member.path.escaped, errno: error.errno))
                    }
                    opened.append(.init(member: member, original: original, size: size, copyDirectory: directory, mustCopy: copies, format: format))
                }
            }
        } catch {
            for file in opened {
                file.original.close()
                file.copyDirectory.close()
            }
            requests.picks.register(requestID, waiter)
            throw error
        }
        return PreparedPick(request: request, waiter: waiter, deliveries: deliveries, ids: appRecord.assetIDs, opened: opened,
                            removal: sharing.removal, locationAllowed: sharing.location)
    }

    /// Opens an original for reading and checks it is still the indexed file,
    /// and one that may be shared (SPEC §3, the same check a view link makes).
    private func openOriginal(_ member: LocatedMember, asset: AssetID) throws -> FileDescriptor {
        func cannot(_ errno: Int32?) -> PhotoLibError { .pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: errno)) }
        guard let name = member.path.lastComponent else { throw cannot(nil) }
        let directory: FileDescriptor
        switch index.access.lookUpDirectory(member.path.parent ?? .root) {
        case .found(let fd): directory = fd
        case .gone: throw cannot(ENOENT)
        case .unreadable(let failure): throw cannot(failure.errno)
        }
        let fd: FileDescriptor
        let status: FileStatus
        do {
            fd = try FileCopy.openUntrusted(name, in: directory)
        } catch {
            throw cannot(error.errno)
        }
        do {
            status = try Directory.status(of: fd)
        } catch {
            fd.close()
            throw cannot(error.errno)
        }
        switch LinkVerdict.judge(status.observation, expectedInode: member.file.inode, daemonUID: ownerUID) {
        case .link:
            return fd
        case .refuse(let refusal) where !refusal.forbidsSharing:
            return fd
        case .refuse(let refusal):
            fd.close()
            throw PhotoLibError.pick(.refused(asset: asset.rawValue, path: member.path.escaped, refusal: refusal))
        case .notTheIndexedFile:
            fd.close()
            throw cannot(nil)
        }
    }

    /// For an app that may not see locations: the member's derivative in
    /// place of an original that holds one (the same one its view would link).
    private func withoutLocation(_ original: FileDescriptor, _ member: LocatedMember, asset: AssetID,
                                 policy: LocationPolicy) throws -> (FileDescriptor, Int64) {
        switch views.source(ofMember: member.rowID, file: member.file, at: member.path, policy: policy) {
        case .original:
            return (original, member.file.size)
        case .derivative(let inode, _):
            original.close()
            do {
                let derivative = try FileCopy.openUntrusted(DerivativeCatalog.derivativeName(member.rowID), in: views.derivatives.directory)
                let status = try Directory.status(of: derivative)
                guard status.inode == inode else {
                    derivative.close()
                    throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: nil))
                }
                return (derivative, status.size)
            } catch let error as SystemCallError {
                throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: error.errno))
            }
        case .withheld(let reason):
            original.close()
            throw PhotoLibError.pick(.locationUnknown(asset: asset.rawValue, path: member.path.escaped, reason: reason))
        case .needsCheck:  // `source` always looks first; never returned
            original.close()
            throw PhotoLibError.pick(.cannotOpen(asset: asset.rawValue, path: member.path.escaped, errno: nil))
        }
    }

    /// The files to hand over, in order: each original (or derivative) as it is, or a private copy
    /// when it holds what the app may not have (taken out of the copy) or the app runs as the owner.
    private nonisolated static func descriptors(for prepared: PreparedPick, fallback: String) throws -> [PreparedPick.Handed] {
        var fallbackDirectory: FileDescriptor?
        defer { fallbackDirectory?.close() }
        do {
            fallbackDirectory = try Directory.open(path: fallback)
        } catch {
            fallbackDirectory = nil  // then the album's own directory must hold the copy
        }
        var files: [PreparedPick.Handed] = []
        for (position, file) in prepared.opened.enumerated() {
            let asset = prepared.deliveries.first { $0.members.contains(file.member) }?.asset.id.rawValue ?? "?"
            do {
                files.append(try handed(file, removal: prepared.removal, locationAllowed: prepared.locationAllowed,
                                        fallback: fallbackDirectory, asset: asset))
            } catch {
                // Everything made or still open is closed: nothing half-delivered. (A file handed
                // as it is is its original; one copied had its original closed.)
                for made in files { made.fd.close() }
                for rest in prepared.opened[position...] {
                    rest.original.close()
                    rest.copyDirectory.close()
                }
                throw error
            }
        }
        return files
    }

    /// One file: as it is, or copied (converted to JPEG where the app reads no other type) and
    /// stripped (`AppMetadataStripper`). Closes what it no longer needs.
    private nonisolated static func handed(_ file: PreparedPick.OpenedMember, removal: MetadataRemoval, locationAllowed: Bool,
                                           fallback: FileDescriptor?, asset: String) throws -> PreparedPick.Handed {
        let path = file.member.path.escaped
        var converted: String?
        let writable: FileDescriptor
        if case .jpeg(let from) = file.format {
            writable = try convertedToJPEG(file, from: from, fallback: fallback, asset: asset, locationAllowed: locationAllowed)
            converted = from
        } else {
            let plan: AppMetadataStripper.Plan?
            do {
                plan = try AppMetadataStripper.plan(file.original, removal: removal)
            } catch {
                throw PhotoLibError.pick(.metadataStays(asset: asset, path: path, reason: error.description))
            }
            guard plan != nil || file.mustCopy else {
                file.copyDirectory.close()
                return PreparedPick.Handed(fd: file.original, size: file.size, copied: false)
            }
            do {
                writable = try FileCopy.unnamedCopy(of: file.original, in: file.copyDirectory, fallback: fallback)
            } catch {
                throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
            }
        }
        do {
            if let plan = try AppMetadataStripper.plan(writable, removal: removal) {
                try AppMetadataStripper.strip(writable, path: writable.procPath, plan: plan, removal: removal)
            }
        } catch {
            writable.close()
            throw PhotoLibError.pick(.metadataStays(asset: asset, path: path, reason: error.description))
        }
        let sealed: FileDescriptor
        let size: Int64
        do {
            sealed = try FileCopy.sealed(writable)
        } catch {
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        do {
            size = try Directory.status(of: sealed).size
        } catch {
            sealed.close()
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        file.original.close()
        file.copyDirectory.close()
        return PreparedPick.Handed(fd: sealed, size: size, copied: true, converted: converted)
    }

    /// A JPEG made from the member by `photolibd-thumbnailer --to-jpeg`, in an unnamed writable file; without
    /// location when the app may not have it (made from the derivative, and checked again here).
    private nonisolated static func convertedToJPEG(_ file: PreparedPick.OpenedMember, from: String, fallback: FileDescriptor?, asset: String,
                                                    locationAllowed: Bool) throws -> FileDescriptor {
        let path = file.member.path.escaped
        // The converter: beside photolibd in a build, in libexec/photolibd where installed.
        let converter: String
        do {
            converter = try HelperExecutables.path("photolibd-thumbnailer")
        } catch {
            throw PhotoLibError.pick(.cannotConvert(asset: asset, path: path, reason: "\(error.message)"))
        }
        let writable: FileDescriptor
        do {
            writable = try FileCopy.unnamedFile(in: file.copyDirectory, fallback: fallback)
        } catch {
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        do {
            let making = FileFormat.jpegMaking(from: from) ?? .decoding
            try ConverterProcess.run(converter, making == .embeddedPreview ? ["--to-jpeg", "--from-preview"] : ["--to-jpeg"],
                                     input: file.original, output: writable)
            if !locationAllowed {
                try LocationStripper.strip(writable, path: writable.procPath)
                try LocationStripper.verifyStripped(writable)
            }
        } catch {
            writable.close()
            throw PhotoLibError.pick(.cannotConvert(asset: asset, path: path, reason: "\(error)"))
        }
        return writable
    }

    /// A pick that could not be handed over for a reason the person can fix: it waits again.
    private func putBack(_ prepared: PreparedPick) {
        if prepared.waiter.isOpen() {
            requests.picks.register(prepared.request.id, prepared.waiter)
        } else {
            withdrawRequest(prepared.request)
        }
    }

    /// Ends a pick that was handed over: removes the request, logs what the
    /// app received, tells the person's tools.
    fileprivate func finishPick(_ prepared: PreparedPick) throws -> RequestOutcome {
        let now = clock.now()
        let picked = prepared.deliveries.map(\.asset.id)
        let (status, purpose) = try store.write { tx -> (AuthorizationStatus, String) in
            try tx.deleteRequest(prepared.request.id)
            try tx.logAccess(picked.map { AccessLogEntry(app: prepared.request.app, asset: $0, how: .pick, request: prepared.request.id, at: now) })
            let record = try tx.app(prepared.request.app)
            return (record?.readWrite ?? .notDetermined, record?.purpose ?? "")
        }
        let outcome = RequestOutcome(app: prepared.request.app, kind: prepared.request.kind, request: prepared.request.id, state: .answered,
                                     answer: RequestAnswer.pick.rawValue, status: status,
                                     pickedAssets: picked.map { (prepared.ids?.id(for: $0) ?? $0).rawValue })
        do {
            try settle(ChangeSet(events: [try journal.requestEvent(prepared.request, purpose: purpose, state: .answered,
                                                                   answer: RequestAnswer.pick.rawValue)]))
        } catch {
            // The pick was handed over and logged; only the prompt's update (or a learned check) is lost.
            logger.error("Could not finish telling of request \(prepared.request.id): \(error)")
        }
        logger.notice("Request \(prepared.request.id): \(picked.count) assets handed to \(prepared.request.app) once (\(prepared.opened.count) files).")
        return outcome
    }
}
