import Glibc
import PhotoLibCore

/// Where photolibd's own helper programs are: in `libexec/photolibd` of the prefix it was
/// installed in (`/usr/bin/photolibd` → `/usr/libexec/photolibd/photolibd-inotify`), or beside
/// the running executable (a build directory). The installed place comes first: a copy an older
/// install left beside the executable is never preferred to what this one installed.
public enum HelperExecutables {
    /// The places `name` is looked for, in order, for the executable at `own`.
    public static func candidates(_ name: String, besides own: String) -> [String] {
        let directory = own.lastIndex(of: "/").map { String(own[..<$0]) } ?? "."
        let prefix = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? ".."
        return [prefix + "/libexec/photolibd/" + name, directory + "/" + name]
    }

    /// The path of helper `name`: the first of `candidates` that is there and executable, once
    /// `HelperTrust` says this process may run it.
    ///
    /// - Throws: `PhotoLibError.helperMissing`, naming every place looked in;
    ///   `PhotoLibError.helperUntrusted` for one found that someone else could have put there.
    public static func path(_ name: String) throws(PhotoLibError) -> String {
        let places = candidates(name, besides: DetachedProcess.ownExecutable ?? "/proc/self/exe")
        guard let found = places.first(where: PathInspection.isExecutable) else {
            throw .helperMissing(name: name, lookedIn: places)
        }
        let directory = found.lastIndex(of: "/").map { String(found[..<$0]) } ?? "."
        // The file itself, not a symlink's target: a link in a trusted place may point anywhere. One that
        // cannot be examined (EACCES, EIO) is said to be so, never taken for a helper missing.
        let file: FileStatus?, parent: FileStatus?
        do {
            file = try PathInspection.lookUpLink(found)
            parent = try PathInspection.lookUp(directory)
        } catch {
            throw .systemCall(name: error.call, path: found, errno: error.errno)
        }
        guard let file, let parent else { throw .helperMissing(name: name, lookedIn: places) }
        if let reason = HelperTrust.refusal(file: Self.facts(file), directory: Self.facts(parent), runningAs: geteuid(),
                                            rootShownAs: Self.rootShownAs()) {
            throw .helperUntrusted(path: found, reason: reason)
        }
        return found
    }

    /// The uid root's files show in this process's user namespace, when it is not the whole identity
    /// map (systemd's PrivateUsers=yes): the kernel's overflow uid. Nil outside such a namespace.
    static func rootShownAs() -> UInt32? {
        guard let file = fopen("/proc/self/uid_map", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The initial namespace maps every uid to itself: "0 0 4294967295".
        if line.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) == ["0", "0", "4294967295"] { return nil }
        return UInt32(exactly: PathInspection.kernelSetting("kernel.overflowuid") ?? 65534) ?? 65534
    }

    private static func facts(_ status: FileStatus) -> HelperTrust.Facts {
        HelperTrust.Facts(isRegularFile: status.kind == .regular, isDirectory: status.kind == .directory,
                          owner: status.owner, mode: status.permissions & 0o7777)
    }
}
