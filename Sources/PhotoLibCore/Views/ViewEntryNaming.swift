/// Names entries in a limited view.
///
/// A limited view is flat, and its names must be unique, stable while the
/// asset stays selected, and reveal nothing about the library (no album, no
/// original name). The asset ID is all three; the extension is kept
/// (lowercased, ASCII only) so apps can tell types apart by name as they do
/// everywhere else.
public enum ViewEntryNaming {
    public static func limitedEntryName(id: AssetID, originalName: FileName, mediaType: MediaType) -> FileName {
        let ext = originalName.pathExtension.map(AssetNamePolicy.lowercased)
        let safeExt = ext.flatMap { bytes -> [UInt8]? in
            bytes.count <= 8 && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) } ? bytes : nil
        }
        let suffix = safeExt ?? Array((mediaType == .image ? "img" : "vid").utf8)
        return FileName(bytes: Array(id.rawValue.utf8) + [0x2E] + suffix)!
    }
}
