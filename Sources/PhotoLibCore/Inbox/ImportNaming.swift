/// Names for a file taken from an inbox: its own name first, then `name (2).jpg`,
/// `name (3).jpg`, … An import never overwrites; the executor moves on to the
/// next candidate when a name is taken (`renameat2(RENAME_NOREPLACE)` says so).
public enum ImportNaming {
    /// The name to try on `attempt` (1 is the name as the app gave it).
    /// A name that would pass 255 bytes gives up bytes of its stem, never its extension.
    public static func candidate(for name: FileName, attempt: Int) -> FileName {
        guard attempt > 1 else { return name }
        let suffix = Array(" (\(attempt))".utf8)
        let ext = name.pathExtension.map { [0x2E] + $0 } ?? []
        var stem = name.stem
        let room = 255 - suffix.count - ext.count
        if stem.count > room { stem = trimmedToCharacter(stem, maximum: room) }
        return FileName(bytes: stem + suffix + ext) ?? name
    }

    /// The temporary name a copy is made under, in the album it is going to:
    /// hidden, so the index never takes it for an asset while it is incomplete.
    public static func temporaryName(importID: Int64) -> FileName {
        FileName(".photolibd-import-\(importID).tmp")!
    }

    /// Drops trailing bytes so the cut does not split a UTF-8 sequence (a name
    /// that is not UTF-8 is cut where it must be).
    private static func trimmedToCharacter(_ bytes: [UInt8], maximum: Int) -> [UInt8] {
        var end = max(0, maximum)
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(bytes[..<end])
    }
}
