import PhotoLibCore
import PhotoLibSystem

/// A video's movie header, read as `MovieDuration` walks it, opened without following a symlink.
enum MovieHeaderFile {
    /// What the header says of the video's length.
    enum Length {
        case seconds(Double)
        /// The file says none, or its boxes are damaged before its movie header.
        case notSaid
        /// The file could not be read: why.
        case unreadable(String)
    }

    static func length(path: [UInt8]) -> Length {
        guard let slash = path.lastIndex(of: 0x2F), let name = FileName(bytes: Array(path[(slash + 1)...])) else {
            return .unreadable("the path has no file name")
        }
        let parent = slash == 0 ? "/" : String(decoding: path[..<slash], as: UTF8.self)
        do {
            let directory = try Directory.open(path: parent)
            defer { directory.close() }
            let fd = try FileCopy.openUntrusted(name, in: directory)
            defer { fd.close() }
            guard try Directory.status(of: fd).kind == .regular else { return .unreadable("it is not a regular file") }
            return try MovieDuration.seconds(DescriptorIsoFile(fd)).map(Length.seconds) ?? .notSaid
        } catch {
            return .unreadable("\(error)")  // an open or a read that failed (SystemCallError, IsoMediaProblem)
        }
    }
}
