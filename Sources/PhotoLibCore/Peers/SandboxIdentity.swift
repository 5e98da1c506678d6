/// Whether a peer process runs in a Flatpak sandbox, as read from its
/// `/.flatpak-info` (through `/proc/PID/root`, pinned by a pidfd).
public enum SandboxIdentity: Sendable, Equatable {
    /// No `/.flatpak-info` in its root: a process of the host (or of a sandbox that is not Flatpak).
    case host
    /// A Flatpak app, by the app ID its `.flatpak-info` names.
    case flatpak(appID: String)
    /// It could not be told (the process is gone, its root cannot be read, the file is not
    /// one Flatpak writes): never taken for `host`.
    case unknown(reason: String)
}

/// Reads the app ID from the contents of a `.flatpak-info` file: the `name`
/// key of its `[Application]` group (`[Runtime]` for a runtime), as Flatpak
/// and xdg-desktop-portal read it. A pure key-file parse, no I/O.
public enum FlatpakInfo {
    public static func appID(in contents: [UInt8]) -> String? {
        let text = String(decoding: contents, as: UTF8.self)
        var group = ""
        var names: [String: String] = [:]
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { return nil }  // not a key file Flatpak wrote
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: " \t")
            if key == "name", names[group] == nil {
                names[group] = line[line.index(after: equals)...].trimmingCharacters(in: " \t")
            }
        }
        guard let name = names["Runtime"] ?? names["Application"], !name.isEmpty else { return nil }
        return name
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

/// What a process's `/proc/PID/status` and `/proc/PID/cgroup` say of its
/// sandbox, for when its `/.flatpak-info` is out of reach (the daemon runs in
/// a user namespace of its own, as under the shipped user unit: the kernel
/// then refuses `/proc/PID/root`). Neither file needs that access.
public enum ProcessFacts {
    /// How many pid namespaces deep a process is: the number of pids on its
    /// `NSpid:` line. A Flatpak app always runs in a pid namespace of its own.
    public static func pidNamespaceDepth(status: [UInt8]) -> Int? {
        for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("NSpid:") {
            let pids = line.dropFirst("NSpid:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return pids.isEmpty ? nil : pids.count
        }
        return nil
    }

    /// The Flatpak app ID from the systemd scope Flatpak starts each app in
    /// (`app-flatpak-org.example.Viewer-12345.scope`), from `/proc/PID/cgroup`.
    /// A sandboxed app cannot move itself to another cgroup; a process outside
    /// any sandbox could name itself so, and would only lose by it.
    public static func flatpakAppID(cgroup: [UInt8]) -> String? {
        let prefix = "app-flatpak-"
        for line in String(decoding: cgroup, as: UTF8.self).split(separator: "\n") {
            guard let unit = line.split(separator: "/").last(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".scope") }) else { continue }
            let middle = unit.dropFirst(prefix.count).dropLast(".scope".count)
            guard let dash = middle.lastIndex(of: "-"), middle[middle.index(after: dash)...].allSatisfy(\.isNumber) else { continue }
            let id = String(middle[..<dash])
            if AppID(id) != nil { return id }
        }
        return nil
    }
}
