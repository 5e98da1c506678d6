/// Which directories of the library are albums.
///
/// Nothing under a dot-directory is in the library (SPEC §3): `.dtrash` (digiKam's
/// trash), `.Trash-1000` (GIO's), `.thumbnails`, `.git`. A photo moved into one
/// has left the library, exactly as if it had been deleted.
public enum LibraryScope {
    /// Whether a directory of this name can be an album.
    public static func isAlbumName(_ name: FileName) -> Bool { !name.isHidden }

    /// Whether a path (of a file or a directory) lies in the library: no component
    /// of its directories is hidden. The last component is judged by the caller
    /// (`AssetNamePolicy` for a file, `isAlbumName` for a directory).
    public static func contains(_ path: RelativePath) -> Bool {
        path.components.dropLast().allSatisfy(isAlbumName)
    }

    /// Whether a directory path is an album (or the root).
    public static func isAlbum(_ path: RelativePath) -> Bool {
        path.components.allSatisfy(isAlbumName)
    }
}
