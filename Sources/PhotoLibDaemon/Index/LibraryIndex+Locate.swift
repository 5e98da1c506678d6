import PhotoLibCore

extension LibraryIndex {
    /// Where an asset and its members are now, in the index's album tree.
    func locate(_ record: AssetRecord) -> LocatedAsset? {
        LocatedAsset(record, in: albums)
    }
}
