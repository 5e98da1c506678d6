import PhotoLibCore
import PhotoLibSystem

/// A video's bytes as `MovieDuration` reads them: `pread` at offsets, opened without following a symlink.
struct MovieHeaderFile: IsoMediaFile {
    let fd: FileDescriptor
    let size: UInt64

    /// Opens the file at `path` (absolute, its bytes); nil when it cannot be read.
    init?(path: [UInt8]) {
        guard let slash = path.lastIndex(of: 0x2F), let name = FileName(bytes: Array(path[(slash + 1)...])) else { return nil }
        let parent = slash == 0 ? "/" : String(decoding: path[..<slash], as: UTF8.self)
        guard let directory = try? Directory.open(path: parent) else { return nil }
        defer { directory.close() }
        guard let fd = try? FileCopy.openUntrusted(name, in: directory) else { return nil }
        guard let status = try? Directory.status(of: fd), status.kind == .regular else {
            fd.close()
            return nil
        }
        self.fd = fd
        size = UInt64(status.size)
    }

    func close() { fd.close() }

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
