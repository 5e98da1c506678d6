import PhotoLibCore

/// What an app without location sees of a member (SPEC §8): the original, a derivative without the
/// location, or nothing while it is not known. Looked at before a transaction, decided inside it
/// from what is known, never by a look while SQLite's write lock is held.
extension ViewMaintainer {
    /// Looks at each member of the asset (deriving a copy where it holds a
    /// location) so that what apps without location are told next, sizes and
    /// withheld files included, is what their views will hold. Outside any transaction.
    func prepareWithoutLocation(_ asset: LocatedAsset) {
        for member in asset.members where member.refusal == nil {
            _ = source(ofMember: member.rowID, file: member.file, at: member.path, policy: .none)
        }
    }

    /// Inside a write transaction: decides each member from what is known (copies made ahead adopted),
    /// never looking at the disk; what needs a look is looked at when its view is linked, after the commit.
    func decideWithoutLocation(_ asset: LocatedAsset) {
        for member in asset.members where member.refusal == nil {
            guard let name = member.path.lastComponent else { continue }
            _ = derivatives.knownSource(policy: .none, rowID: member.rowID, file: member.file, name: name)
        }
    }

    /// Looks at a library file before the transaction that indexes it, making its copy without location
    /// if it needs one (`LocationLookAhead`): the transaction then adopts the answer instead of copying.
    func lookAhead(_ path: RelativePath) {
        guard let name = path.lastComponent, let album = access.directory(path.parent ?? .root) else { return }
        derivatives.lookAhead(name, in: album)
    }

    /// How members appear to this app: as the location checks say, for an app without location.
    func appearance(for app: AppRecord) -> (LocatedMember) -> MemberAppearance {
        let derivatives = derivatives
        let policy = app.location
        return { member in derivatives.appearance(policy: policy, member: member) }
    }

    /// Inside a write transaction: decides, from what is known and from the copies made ahead of it,
    /// how the assets an app without location is about to be told of appear to it, so the sizes it
    /// hears are those its view will hold. No system call: SQLite's write lock is held.
    func decideWithoutLocation(_ assets: [LocatedAsset], for contexts: [AppViewContext]) {
        let hidden = contexts.filter { $0.app.location == .none && $0.layout != .empty }
        guard !hidden.isEmpty else { return }
        for asset in assets where hidden.contains(where: { $0.policy.isGranted(asset) }) {
            decideWithoutLocation(asset)
        }
    }

    /// Removes the copies without location no view links any more, as a change's acts say: all of them,
    /// those of some members, or, after a library change, those of the files that changed or went,
    /// forgetting what was known of the members that are gone.
    func collectDerivatives(_ acts: SettleActs.Derivatives) {
        switch acts {
        case .untouched:
            break
        case .all:
            derivatives.collectGarbage()
        case .members(let members):
            derivatives.collectGarbage(members: members)
        case .library(let changes):
            derivatives.collectGarbage(members: changes.flatMap(\.memberRowIDs))
            let still = Set(changes.compactMap(\.newAsset).flatMap { $0.members.map(\.rowID) })
            derivatives.forget(members: changes.flatMap { change -> [Int64] in
                guard case .asset(let old?, nil) = change else { return [] }
                return old.members.map(\.rowID).filter { !still.contains($0) }
            })
        }
    }
}
