/// What to give a sandboxed app so that it reaches exactly its view
/// (read-only), its endpoint and its inbox (read-write), and nothing of the home or the library
/// (SPEC §4): the arguments `photolibctl app sandbox` prints.
public struct SandboxArguments: Sendable, Equatable {
    public var app: AppID
    /// The app's view directory (absolute).
    public var view: String
    /// The app's endpoint socket (absolute).
    public var endpoint: String
    /// The app's inbox directory (absolute): where it writes photos to add. nil from a daemon without inboxes.
    public var inbox: String?
    /// The library (absolute): named so that a grant the app asks for itself cannot reach it.
    public var library: String
    /// `$XDG_RUNTIME_DIR`, when known: Flatpak names paths below it `xdg-run/…`.
    public var runtimeDirectory: String?

    public init(app: AppID, view: String, endpoint: String, inbox: String? = nil, library: String, runtimeDirectory: String?) {
        self.app = app
        self.view = view
        self.endpoint = endpoint
        self.inbox = inbox
        self.library = library
        self.runtimeDirectory = runtimeDirectory
    }

    /// The environment a client reads to find its endpoint, view and inbox.
    public var environment: [(String, String)] {
        [("PHOTOLIBD_ENDPOINT", endpoint), ("PHOTOLIBD_VIEW", view)] + (inbox.map { [("PHOTOLIBD_INBOX", $0)] } ?? [])
    }

    /// `flatpak override --user …`: take away what photo apps usually ask for
    /// (the home, the Pictures folder, the host), then grant the view read-only
    /// and the endpoint, and say where they are.
    public var flatpakOverride: [String] {
        var out = ["flatpak", "override", "--user", "--nofilesystem=host", "--nofilesystem=home",
                   "--nofilesystem=xdg-pictures", "--nofilesystem=\(library)",
                   "--filesystem=\(flatpakPath(view)):ro", "--filesystem=\(flatpakPath(endpoint))"]
        if let inbox { out.append("--filesystem=\(flatpakPath(inbox))") }
        out += environment.map { "--env=\($0.0)=\($0.1)" }
        return out + [app.rawValue]
    }

    /// bubblewrap arguments that bind the view read-only, the endpoint and the inbox, and
    /// set the environment; the caller adds the runtime (`/usr`…) and the command.
    public var bubblewrap: [String] {
        ["--ro-bind", view, view, "--bind", endpoint, endpoint] + (inbox.map { ["--bind", $0, $0] } ?? [])
            + environment.flatMap { ["--setenv", $0.0, $0.1] }
    }

    /// A path as Flatpak's `--filesystem` takes it: `xdg-run/…` below the runtime directory.
    func flatpakPath(_ path: String) -> String {
        if let runtimeDirectory, !runtimeDirectory.isEmpty, path.hasPrefix(runtimeDirectory + "/") {
            return "xdg-run/" + path.dropFirst(runtimeDirectory.count + 1)
        }
        return path
    }

    /// One argument as a POSIX shell reads it back: quoted unless it is plainly safe.
    public static func shellQuoted(_ argument: String) -> String {
        let safe = argument.unicodeScalars.allSatisfy {
            ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value >= 0x41 && $0.value <= 0x5A)
                || ($0.value >= 0x61 && $0.value <= 0x7A) || "-_./=:@%+,".unicodeScalars.contains($0)
        }
        if safe && !argument.isEmpty { return argument }
        return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
