import PhotoLibCore
import PhotoLibSystem

/// A video's bytes as `MovieDuration` reads them, opened without following a symlink.
enum MovieHeaderFile {
    /// How long the video at `path` (absolute, its bytes) says it is; nil when it cannot be read or says none.
    static func duration(path: [UInt8]) -> Double? {
        guard let slash = path.lastIndex(of: 0x2F), let name = FileName(bytes: Array(path[(slash + 1)...])) else { return nil }
        let parent = slash == 0 ? "/" : String(decoding: path[..<slash], as: UTF8.self)
        // Unreadable here means no duration to show: the placeholder then says "Video" alone.
        guard let directory = try? Directory.open(path: parent) else { return nil }
        defer { directory.close() }
        guard let fd = try? FileCopy.openUntrusted(name, in: directory) else { return nil }
        defer { fd.close() }
        guard let status = try? Directory.status(of: fd), status.kind == .regular, let file = try? DescriptorIsoFile(fd) else { return nil }
        return MovieDuration.seconds(file)
    }
}
