/// What an album moved in the library (a rename, or a move to another parent) does to one app's view:
/// the one rule the view's step and the app's change event both follow.
public enum AlbumMoveEffect: Sendable, Equatable {
    /// Nothing in the view changes: a view without album directories (a limited app's, flat)
    /// whose grants name assets, not albums, holds the same entries under the same names.
    case nothing
    /// The view's album directory moves with it, and its assets are `changed` with their new paths.
    case moveDirectory
    /// Too broad to describe: an album grant may now cover more or fewer photos.
    /// The view is reconciled whole, and the app told to reload.
    case reconcile

    public static func of(layout: ViewLayout, hasAlbumGrants: Bool) -> AlbumMoveEffect {
        switch layout {
        case .empty: .nothing
        case .limited: hasAlbumGrants ? .reconcile : .nothing
        case .full: .moveDirectory
        }
    }
}
