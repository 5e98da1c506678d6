/// Whether xdg-desktop-portal uses photolibd for file dialogs, from what
/// `photolibctl doctor` finds: the installed `.portal` file, the
/// `portals.conf` that applies (xdg-desktop-portal 1.17 and later), and the
/// desktop names the running xdg-desktop-portal sees (1.16 chooses by those).
public struct PortalChoice: Sendable, Equatable {
    /// Where `photolibd.portal` was found (none: not installed).
    public var installed: [String]
    /// The first `portals.conf` found that names a FileChooser backend: its path and the backends it names, in order.
    public var configured: (file: String, backends: [String])?
    /// `XDG_CURRENT_DESKTOP` of the running xdg-desktop-portal; nil when none runs or it cannot be read.
    public var portalDesktops: String?
    /// `XDG_DESKTOP_PORTAL_DIR` of the running xdg-desktop-portal, which replaces where it reads `.portal` files from.
    public var portalDirectory: String?
    /// Why the running processes could not be looked at (then whether xdg-desktop-portal runs, and how, is unknown).
    public var processesUnreadable: String?

    public init(installed: [String] = [], configured: (file: String, backends: [String])? = nil, portalDesktops: String? = nil,
                portalDirectory: String? = nil) {
        self.installed = installed
        self.configured = configured
        self.portalDesktops = portalDesktops
        self.portalDirectory = portalDirectory
    }

    public static func == (lhs: PortalChoice, rhs: PortalChoice) -> Bool {
        lhs.installed == rhs.installed && lhs.configured?.file == rhs.configured?.file
            && lhs.configured?.backends == rhs.configured?.backends && lhs.portalDesktops == rhs.portalDesktops
            && lhs.portalDirectory == rhs.portalDirectory && lhs.processesUnreadable == rhs.processesUnreadable
    }

    /// The one directory xdg-desktop-portal 1.16 reads `.portal` files from (later versions read every `$XDG_DATA_DIRS`).
    public static let portal116Directory = "/usr/share/xdg-desktop-portal/portals"

    /// The backends a `portals.conf` names for FileChooser (its `[preferred]` key), or nil when it names none.
    public static func fileChooserBackends(inPortalsConf text: String) -> [String]? {
        var section = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard section == "preferred", let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: " \t\r")
            guard key == "org.freedesktop.impl.portal.FileChooser" else { continue }
            return line[line.index(after: equals)...].split(separator: ";").map { $0.trimmingCharacters(in: " \t\r") }.filter { !$0.isEmpty }
        }
        return nil
    }

    /// The doctor's line about it.
    public var check: DoctorCheck {
        let name = "file-dialogs"
        let chosenByConfig = configured.map { $0.backends.first == "photolibd" } ?? false
        let desktops = portalDesktops?.split(separator: ":").map { $0.lowercased() } ?? []
        let chosenByDesktop = configured == nil && desktops.first == "photolibd"
        if installed.isEmpty {
            if chosenByConfig || chosenByDesktop {
                return DoctorCheck(name, .warn, "File dialogs are set to use photolibd (\(configured?.file ?? "XDG_CURRENT_DESKTOP=\(portalDesktops ?? "")")), but photolibd.portal is not installed: xdg-desktop-portal falls back to another backend.",
                                   advice: "Install photolibd (make install), or undo the setting (docs/USING.md, \"Photos in every app's file dialog\").")
            }
            return DoctorCheck(name, .pass, "photolibd's file-chooser backend is not installed: apps' file dialogs are the desktop's own.")
        }
        if chosenByConfig, let configured {
            return DoctorCheck(name, .pass, "On: \(configured.file) chooses photolibd for file dialogs; photos are picked on your page, other dialogs go to the desktop's backend.")
        }
        if chosenByDesktop {
            // That is the way of xdg-desktop-portal 1.16, which reads .portal files from one directory only.
            let read = portalDirectory ?? Self.portal116Directory
            guard installed.contains(where: { $0.hasPrefix(read + "/") }) else {
                return DoctorCheck(name, .warn, "xdg-desktop-portal runs with XDG_CURRENT_DESKTOP=\(portalDesktops ?? ""), but photolibd.portal is only in \(installed.joined(separator: ", ")); xdg-desktop-portal 1.16 reads \(read) alone.",
                                   advice: "sudo ln -s \(installed[0]) \(read)/photolibd.portal, then systemctl --user restart xdg-desktop-portal (or install with PREFIX=/usr).")
            }
            return DoctorCheck(name, .pass, "On: xdg-desktop-portal runs with XDG_CURRENT_DESKTOP=\(portalDesktops ?? ""), so photolibd answers file dialogs for photos.")
        }
        if configured == nil, let unreadable = processesUnreadable {
            return DoctorCheck(name, .warn, "photolibd's file-chooser backend is installed, but whether xdg-desktop-portal uses it cannot be told: /proc cannot be read (\(unreadable)).",
                               advice: "Run photolibctl doctor where /proc is mounted and readable, as the person who runs the desktop.")
        }
        let why = configured.map { "\($0.file) chooses \($0.backends.first ?? "another backend")" } ?? "nothing chooses it"
        return DoctorCheck(name, .pass, "photolibd's file-chooser backend is installed but off (\(why)): apps' file dialogs are the desktop's own; docs/USING.md, \"Photos in every app's file dialog\", turns it on.")
    }
}
