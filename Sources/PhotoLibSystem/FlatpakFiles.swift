import Glibc
public import PhotoLibCore

/// The files Flatpak keeps about an installed app: its manifest's permissions (the
/// `metadata` key file of its current deployment) and the overrides, in the user's
/// installation (`~/.local/share/flatpak`) and the system's (`/var/lib/flatpak`).
///
/// A file that is not there is nil; any other failure is thrown, never taken for "none".
public struct FlatpakFiles: Sendable {
    public var userDirectory: String
    public var systemDirectory: String

    /// The installations as Flatpak finds them: `$FLATPAK_USER_DIR` or `~/.local/share/flatpak`,
    /// `$FLATPAK_SYSTEM_DIR` or `/var/lib/flatpak`.
    public init(home: String) {
        userDirectory = ProcessIdentity.environment("FLATPAK_USER_DIR")
            ?? (ProcessIdentity.environment("XDG_DATA_HOME") ?? home + "/.local/share") + "/flatpak"
        systemDirectory = ProcessIdentity.environment("FLATPAK_SYSTEM_DIR") ?? "/var/lib/flatpak"
    }

    /// The app's manifest permissions: the user installation's deployment first, as `flatpak run` prefers it.
    public func metadata(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        for root in [userDirectory, systemDirectory] {
            if let text = try readText(root + "/app/" + app.rawValue + "/current/active/metadata") { return text }
        }
        return nil
    }

    public func systemOverride(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        try readText(systemDirectory + "/overrides/" + app.rawValue)
    }

    public var userOverridesDirectory: String { userDirectory + "/overrides" }

    public func userOverride(of app: AppID) throws(SystemCallError) -> KeyFileText? {
        try readText(userOverridesDirectory + "/" + app.rawValue)
    }

    /// Replaces the user override in one rename (Flatpak reads it whole or not at all);
    /// a file left with nothing in it is removed, as `flatpak override --reset` leaves none.
    public func writeUserOverride(of app: AppID, _ file: KeyFileText) throws(SystemCallError) {
        let path = userOverridesDirectory + "/" + app.rawValue
        if file.isBlank {
            PrivateFiles.remove(path)
            return
        }
        _ = try ProcessIdentity.makeDirectories(userOverridesDirectory, mode: 0o755)
        try PrivateFiles.write(path, Array(file.text.utf8), mode: 0o644)
    }

    /// The person's Pictures folder relative to `home`, from `$XDG_CONFIG_HOME/user-dirs.dirs`
    /// (`UserDirectories`); an unreadable file counts as none, as GLib takes it.
    public static func picturesFolder(home: String) -> FlatpakPicturesFolder {
        let config = ProcessIdentity.environment("XDG_CONFIG_HOME") ?? home + "/.config"
        let text = (try? PrivateFiles.read(config + "/user-dirs.dirs")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        return FlatpakPicturesFolder(home: home, pictures: UserDirectories.pictures(in: text, home: home))
    }

    private func readText(_ path: String) throws(SystemCallError) -> KeyFileText? {
        try PrivateFiles.read(path).map { KeyFileText(String(decoding: $0, as: UTF8.self)) }
    }
}

extension FlatpakFiles {
    /// What one installation says of an app: its manifest's permissions, its exported
    /// .desktop entry and icon file.
    public struct Deployment: Sendable {
        public var id: AppID
        public var installation: InstalledFlatpakApp.Installation
        public var metadata: KeyFileText
        public var desktop: KeyFileText?
        public var iconFile: String?
    }

    /// Every app of both installations, the user's first (as `flatpak run` prefers it), an app in
    /// both once. An installation that is not there holds none; one that cannot be read is an error.
    public func deployments() throws(SystemCallError) -> [Deployment] {
        var found: [Deployment] = []
        var seen: Set<AppID> = []
        for (root, installation) in [(userDirectory, InstalledFlatpakApp.Installation.user), (systemDirectory, .system)] {
            let apps: FileDescriptor
            do {
                apps = try Directory.open(path: root + "/app")
            } catch where error.isNotFound {
                continue
            }
            defer { apps.close() }
            for entry in try Directory.list(apps) {
                guard let id = AppID(String(decoding: entry.name.bytes, as: UTF8.self)), !seen.contains(id) else { continue }
                let active = root + "/app/" + id.rawValue + "/current/active"
                // Not deployed (being installed, or removed but for its data): not an installed app.
                guard let metadata = try readText(active + "/metadata") else { continue }
                seen.insert(id)
                let export = active + "/export/share"
                found.append(Deployment(
                    id: id, installation: installation, metadata: metadata,
                    desktop: try readText(export + "/applications/" + id.rawValue + ".desktop"),
                    iconFile: InstalledFlatpakApp.iconCandidates.lazy.flatMap { size in
                        ["png", "svg"].map { export + "/icons/hicolor/" + size + "/apps/" + id.rawValue + "." + $0 }
                    }.first { PathInspection.status($0)?.kind == .regular }))
            }
        }
        return found
    }

    /// The apps running now, as `flatpak ps` finds them (a hint for the person, so an instance
    /// whose files cannot be read is not counted): each instance under
    /// `$XDG_RUNTIME_DIR/.flatpak` whose sandbox process lives, with when its oldest instance
    /// started (its `info` file's modification time, nanoseconds).
    public static func runningApps(runtimeDirectory: String?) -> [AppID: Int64] {
        guard let runtimeDirectory, let instances = try? Directory.open(path: runtimeDirectory + "/.flatpak") else { return [:] }
        defer { instances.close() }
        var running: [AppID: Int64] = [:]
        for entry in (try? Directory.list(instances)) ?? [] where entry.kind == .directory || entry.kind == .unknown {
            let instance = runtimeDirectory + "/.flatpak/" + String(decoding: entry.name.bytes, as: UTF8.self)
            guard let info = (try? PrivateFiles.read(instance + "/info")).flatMap({ $0 }),
                  let id = KeyFileText(String(decoding: info, as: UTF8.self)).value("name", in: "Application").flatMap(AppID.init),
                  let bwrap = (try? PrivateFiles.read(instance + "/bwrapinfo.json")).flatMap({ $0 }),
                  let pid = childPID(inBwrapInfo: String(decoding: bwrap, as: UTF8.self)), kill(pid, 0) == 0 || errno == EPERM else { continue }
            let started = PathInspection.status(instance + "/info")?.modificationTime ?? 0
            running[id] = min(running[id] ?? .max, started)
        }
        return running
    }

    /// What `flatpak --version` prints ("Flatpak 1.14.10"); nil when flatpak is not installed or says nothing in 5 s.
    public static func version(executable: String = "/usr/bin/flatpak") -> String? {
        guard PathInspection.isExecutable(executable), let child = try? HelperProcess(executable, ["--version"]) else { return nil }
        defer { child.kill(); _ = try? child.reap() }
        try? child.channel.setReceiveTimeout(seconds: 5)
        var printed: [UInt8] = []
        while printed.count < 4096, let chunk = try? child.channel.read(), !chunk.isEmpty { printed += chunk }
        let text = String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return text.isEmpty ? nil : text
    }

    /// `"child-pid": 1234` from bubblewrap's `--info-fd` output.
    static func childPID(inBwrapInfo text: String) -> Int32? {
        guard let key = text.firstRange(of: "\"child-pid\"") else { return nil }
        let digits = text[key.upperBound...].drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int32(digits)
    }
}
