import Glibc
public import PhotoLibCore
import PhotoLibSystem

/// Finds whether apps' file dialogs come to photolibd, as xdg-desktop-portal would decide it: its
/// `.portal` file in the data directories, the `portals.conf` that applies, and the desktop names
/// the running xdg-desktop-portal was started with. Reads only.
public enum PortalSurvey {
    public static func gather(environment: (String) -> String? = ProcessIdentity.environment) -> PortalChoice {
        let dataDirectories = (environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        let running: (desktops: String?, directory: String?)?
        var processesUnreadable: String?
        do {
            running = try runningPortal()
        } catch {
            running = nil
            processesUnreadable = "\(error)"
        }
        let portalDirectories = Set(dataDirectories + ["/usr/share", "/usr/local/share"]).map { $0 + "/xdg-desktop-portal/portals" }
            + (running?.directory.map { [$0] } ?? [])
        let installed = Set(portalDirectories).sorted().map { $0 + "/photolibd.portal" }.filter { PathInspection.status($0) != nil }
        let desktops = (environment("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.lowercased() }
        let home = environment("HOME") ?? ""
        let configHome = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let configDirectories = [configHome] + (environment("XDG_CONFIG_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
            .split(separator: ":").map(String.init) + dataDirectories
        // As xdg-desktop-portal 1.17+ looks: in each directory, the desktop's own file before the generic one.
        var configured: (file: String, backends: [String])?
        search: for directory in configDirectories {
            for name in desktops.map({ "\($0)-portals.conf" }) + ["portals.conf"] {
                let path = directory + "/xdg-desktop-portal/" + name
                let bytes: [UInt8]
                do {
                    guard let read = try PrivateFiles.read(path, limit: 1 << 16) else { continue }
                    bytes = read
                } catch {
                    // There, but unreadable: xdg-desktop-portal cannot read it either; say so rather than look further.
                    configured = ("\(path) (unreadable: \(error))", [])
                    break search
                }
                if let backends = PortalChoice.fileChooserBackends(inPortalsConf: String(decoding: bytes, as: UTF8.self)) {
                    configured = (path, backends)
                }
                break search  // the first file found is the one used, whether or not it names FileChooser
            }
        }
        var choice = PortalChoice(installed: installed, configured: configured, portalDesktops: running?.desktops ?? nil,
                                  portalDirectory: running?.directory)
        choice.processesUnreadable = processesUnreadable
        return choice
    }

    /// `XDG_CURRENT_DESKTOP` and `XDG_DESKTOP_PORTAL_DIR` of this user's running xdg-desktop-portal, from its /proc environment.
    /// Nil when none runs; throws when /proc cannot be listed (then it cannot be told).
    static func runningPortal() throws(SystemCallError) -> (desktops: String?, directory: String?)? {
        let proc = try Directory.open(path: "/proc")
        defer { proc.close() }
        for entry in try Directory.list(proc) {
            let pid = String(decoding: entry.name.bytes, as: UTF8.self)
            guard Int32(pid) != nil, PathInspection.status("/proc/\(pid)")?.owner == ProcessIdentity.userID,
                  let comm = try processFile("/proc/\(pid)/comm", limit: 64),
                  String(decoding: comm, as: UTF8.self).hasPrefix("xdg-desktop-por"),
                  let environ = try processFile("/proc/\(pid)/environ", limit: 1 << 20) else { continue }
            func value(_ name: String) -> String? {
                let prefix = Array((name + "=").utf8)
                return environ.split(separator: 0).first { $0.starts(with: prefix) }.map { String(decoding: $0.dropFirst(prefix.count), as: UTF8.self) }
            }
            return (value("XDG_CURRENT_DESKTOP") ?? "", value("XDG_DESKTOP_PORTAL_DIR"))
        }
        return nil
    }

    /// A file of one process in /proc; nil when the process has gone while it was read (`ENOENT`, `ESRCH`):
    /// such a one is simply not the portal. Any other failure (`EACCES` under `hidepid`, say) throws, so
    /// a portal whose environment cannot be read is reported as such, not taken for none running.
    private static func processFile(_ path: String, limit: Int) throws(SystemCallError) -> [UInt8]? {
        do {
            return try PrivateFiles.read(path, limit: limit)
        } catch where error.errno == ESRCH {
            return nil
        }
    }
}
