/// How a search matches a file or album name: byte for byte, ASCII letters in
/// either case. Names are bytes, not text (a hostile name may not be UTF-8), so
/// nothing beyond ASCII is folded: a search matches the same bytes whatever
/// they encode. The store keeps each member's name folded this way, so a search
/// compares bytes instead of folding 100,000 names again for every keystroke.
public enum NameFolding {
    /// `bytes` with A–Z turned to a–z, every other byte as it is. Inlinable: the store folds every
    /// name it writes, and a generic call across modules would go through witness tables per byte.
    @inlinable
    public static func fold(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map(fold)
    }

    @inlinable
    public static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
