/// What one app is told of a batch of library changes: the rule of "who hears what".
///
/// The change journal asks it for each app and only records the answer; it is
/// the same `ViewPolicy` that decides the app's directory, so what an app is
/// told always matches what its view holds.
public enum ChangeHearing {
    /// The app's notice for a batch.
    public enum Notice: Sendable, Equatable {
        /// Its view did not change.
        case nothing
        /// Too much or too broad to describe: reload with `list`.
        case reload
        /// These assets were removed, inserted or changed, as the app sees them.
        case details(ChangeDetails)
    }

    /// - Parameters:
    ///   - overflowed: the batch was too large to keep (the recorder dropped it).
    ///   - movedAssets: for each album moved in the batch (by its new path), the assets under it as
    ///     they are now; no entry when the album cannot be found any more.
    ///   - viewAsset: the asset as this app sees it, nil when it is not in its view.
    public static func notice(
        layout: ViewLayout, hasAlbumGrants: Bool, changes: [ViewChange], overflowed: Bool,
        movedAssets: [RelativePath: [LocatedAsset]], viewAsset: (LocatedAsset?) -> ViewAsset?
    ) -> Notice {
        guard layout != .empty else { return .nothing }
        if overflowed { return .reload }
        var coalescer = ChangeCoalescer()
        for change in changes {
            switch change {
            case .asset(let old, let new):
                guard let id = (old ?? new)?.id.rawValue else { continue }
                coalescer.add(id: id, old: viewAsset(old), new: viewAsset(new))
            case .albumMoved(let from, let to):
                switch AlbumMoveEffect.of(layout: layout, hasAlbumGrants: hasAlbumGrants) {
                case .nothing: continue
                case .reconcile: return .reload
                case .moveDirectory: break
                }
                guard let assets = movedAssets[to] else { return .reload }
                for now in assets {
                    var before = now
                    for index in before.members.indices {
                        let path = before.members[index].path
                        before.members[index].path = path.replacingPrefix(to, with: from) ?? path
                    }
                    coalescer.add(id: now.id.rawValue, old: viewAsset(before), new: viewAsset(now))
                }
            case .albumCreated, .albumRemoved:
                continue
            }
        }
        let details = coalescer.details
        return details.isEmpty ? .nothing : .details(details)
    }
}
