import PhotoLibCore

/// Where photolibd's own helper programs are: beside the running executable (a build
/// directory), or in `libexec/photolibd` of the prefix it was installed in
/// (`/usr/bin/photolibd` → `/usr/libexec/photolibd/photolibd-inotify`).
public enum HelperExecutables {
    /// The places `name` is looked for, in order, for the executable at `own`.
    public static func candidates(_ name: String, besides own: String) -> [String] {
        let directory = own.lastIndex(of: "/").map { String(own[..<$0]) } ?? "."
        let prefix = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? ".."
        return [directory + "/" + name, prefix + "/libexec/photolibd/" + name]
    }

    /// The path of helper `name`, the first of `candidates` that is an executable file.
    ///
    /// - Throws: `PhotoLibError.helperMissing`, naming every place looked in.
    public static func path(_ name: String) throws(PhotoLibError) -> String {
        let places = candidates(name, besides: DetachedProcess.ownExecutable ?? "/proc/self/exe")
        guard let found = places.first(where: PathInspection.isExecutable) else {
            throw .helperMissing(name: name, lookedIn: places)
        }
        return found
    }
}
