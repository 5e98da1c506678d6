/// The per-user default locations shared by the daemon and its clients (SPEC §7).
public enum DefaultPaths {
    /// `$XDG_DATA_HOME/photolibd`, normally `~/.local/share/photolibd`.
    public static var stateDirectory: String {
        let home = ProcessIdentity.homeDirectory ?? "/"
        return (ProcessIdentity.environment("XDG_DATA_HOME") ?? home + "/.local/share") + "/photolibd"
    }

    /// `$XDG_CONFIG_HOME/photolibd/photolibd.toml`, normally `~/.config/photolibd/photolibd.toml`:
    /// read when it exists and no `--config` is given.
    public static var configFile: String {
        let home = ProcessIdentity.homeDirectory ?? "/"
        return (ProcessIdentity.environment("XDG_CONFIG_HOME") ?? home + "/.config") + "/photolibd/photolibd.toml"
    }

    /// Where a client looks when told nothing: the per-user default when something is
    /// there, else the socket of `photolibd@USER.service` run by the system manager
    /// (`/run/photolibd/USER/photolibd.sock`) when that exists, else the per-user default.
    public static func clientSocket() -> String {
        let perUser = socket()
        if PathInspection.status(perUser) != nil { return perUser }
        if let name = ProcessIdentity.userName {
            let systemInstance = "/run/photolibd/\(name)/photolibd.sock"
            if PathInspection.status(systemInstance)?.isSocket == true { return systemInstance }
        }
        return perUser
    }

    /// `$XDG_RUNTIME_DIR/photolibd.sock`; else `/run/user/UID/photolibd.sock` when that
    /// directory exists; else `photolibd.sock` in the state directory.
    public static func socket(stateDirectory: String? = nil) -> String {
        if let runtime = ProcessIdentity.environment("XDG_RUNTIME_DIR") {
            return runtime + "/photolibd.sock"
        }
        let perUser = "/run/user/\(ProcessIdentity.userID)"
        if ProcessIdentity.isDirectory(perUser) { return perUser + "/photolibd.sock" }
        return (stateDirectory ?? Self.stateDirectory) + "/photolibd.sock"
    }
}
