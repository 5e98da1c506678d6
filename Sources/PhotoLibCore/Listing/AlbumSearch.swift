/// Which albums a search names: those whose path holds the searched bytes,
/// ASCII letters in either case (as a file name is matched), with their sub-albums.
public enum AlbumSearch {
    public static func matching(_ text: [UInt8], in albums: AlbumTree) -> [AlbumTree.ID] {
        guard !text.isEmpty else { return [] }
        let wanted = NameFolding.fold(text)
        var found: Set<AlbumTree.ID> = []
        for id in albums.allIDs where !found.contains(id) {
            guard let path = albums.path(of: id), !path.isRoot else { continue }
            let bytes = NameFolding.fold(path.bytes)
            if contains(bytes, wanted) { found.formUnion(albums.subtree(of: id)) }
        }
        return found.sorted()
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
