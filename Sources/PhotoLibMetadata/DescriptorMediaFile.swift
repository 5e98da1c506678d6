import PhotoLibCore
import PhotoLibSystem

/// An open file as `IsoLocationPlan` reads it: `pread` at offsets.
struct DescriptorMediaFile: IsoMediaFile {
    let fd: FileDescriptor
    let size: UInt64

    init(_ fd: FileDescriptor) throws(DerivativeProblem) {
        self.fd = fd
        do {
            size = UInt64(try Directory.status(of: fd).size)
        } catch {
            throw .io(call: error.call, errno: error.errno)
        }
    }

    func read(at offset: UInt64, count: Int) throws(IsoMediaProblem) -> [UInt8] {
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
