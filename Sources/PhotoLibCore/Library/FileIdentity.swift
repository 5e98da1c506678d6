/// Decides whether a file found now is a file the index knew, so that it keeps
/// that file's asset ID (and with it every selection of it).
///
/// Inode numbers are reused: ext4 hands a freed number to the next new file at
/// once. A number alone would let a new, private photo inherit a shared one's
/// ID while the daemon was not watching. The birth time tells the two apart.
public enum FileIdentity {
    /// True when `found` is the very file `indexed` describes (moved, renamed or
    /// edited in place while nobody watched), false when it is another file.
    ///
    /// With birth times on both sides, they must be equal. Where the filesystem
    /// keeps none, the rule is conservative: size and modification time must
    /// be unchanged too. A moved file keeps both, so moves still keep IDs; an
    /// edited-and-moved file gets a new ID, which loses a selection but never
    /// shows a photo nobody chose.
    public static func isSameFile(indexed: FileFacts, found: FileFacts) -> Bool {
        guard indexed.device == found.device, indexed.inode == found.inode else { return false }
        if let before = indexed.birthTime, let now = found.birthTime {
            return before == now
        }
        return indexed.size == found.size && indexed.modificationTime == found.modificationTime
    }

    /// What a file looks like where its inode number says nothing (sshfs and some SMB servers make
    /// numbers up, and a file renamed on the server gets a new one): its device, size and
    /// modification time. A file moved or renamed keeps all three; a match counts only when exactly
    /// one vanished file and exactly one new file look so, since two copies of a photo would too.
    public struct Content: Sendable, Hashable {
        public let device: UInt64
        public let size: Int64
        public let modificationTime: Int64

        public init(_ file: FileFacts) {
            device = file.device
            size = file.size
            modificationTime = file.modificationTime
        }
    }
}
