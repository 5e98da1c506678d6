import Glibc

/// Read-only looks at configured paths and kernel settings, for `photolibctl doctor`.
///
/// These follow symlinks on purpose: they answer "what will the daemon find at
/// this configured path", never walk the library (that goes through `Directory`).
public enum PathInspection {
    /// `stat` of a path, or nil when nothing is there (or it cannot be reached).
    public static func status(_ path: String) -> FileStatus? {
        var st = stat()
        return stat(path, &st) == 0 ? FileStatus(st) : nil
    }

    /// The mount ID (`statx`) of the directory at `path`, or of its nearest existing
    /// ancestor when it does not exist yet: that is where the daemon would create it.
    public static func mountID(ofNearest path: String) -> UInt64? {
        var candidate = path
        while true {
            if let fd = try? Directory.open(path: candidate) {
                defer { fd.close() }
                return try? MountCheck.mountID(fd)
            }
            guard let slash = candidate.lastIndex(of: "/"), candidate != "/" else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// A whole-number kernel setting such as `fs.inotify.max_user_watches`, read from /proc/sys.
    public static func kernelSetting(_ name: String) -> Int? {
        let path = "/proc/sys/" + String(name.map { $0 == "." ? "/" : $0 })
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int(text.filter { !$0.isWhitespace })
    }
}
