/// A file's device and inode number: where inode numbers are the filesystem's own, what a file
/// moved while no watch saw it is found by (its birth time then tells a reused number from it).
public struct FileInode: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    public init(_ file: FileFacts) {
        self.init(device: file.device, inode: file.inode)
    }
}
