public import PhotoLibCore

/// An open file as the core's ISO box walkers read it (`IsoLocationPlan`, `MovieDuration`): `pread` at offsets.
public struct DescriptorIsoFile: IsoMediaFile {
    public let fd: FileDescriptor
    public let size: UInt64

    /// Reads `fd`'s size now; the file is read from as it is then.
    public init(_ fd: FileDescriptor) throws(SystemCallError) {
        self.fd = fd
        size = UInt64(try Directory.status(of: fd).size)
    }

    public func read(at offset: UInt64, count: Int) throws(IsoMediaProblem) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try PositionalIO.read(fd, at: offset, count: count)
        } catch {
            throw .unreadable(errno: error.errno)
        }
        guard bytes.count == count else { throw .malformed("the file ends inside a box") }
        return bytes
    }
}
