/// The lines photolibd adds to a Flatpak app's user override so that the app's
/// `~/Pictures` is its view, and how they are taken out again leaving the person's
/// own lines exactly as they were.
///
/// Limiting an app negates every grant that reaches the Pictures folder
/// (`!xdg-pictures`, `!xdg-pictures/Trips`, and, once the person confirms, `!home`,
/// `!host`) and persists `Pictures`: Flatpak then binds `~/.var/app/APP/Pictures`,
/// where the daemon keeps the view, at `~/Pictures` inside the sandbox. Flatpak
/// skips `persistent` for an app that still has its home, so a broad grant must go.
public struct PicturesOverride: Sendable, Equatable, Codable {
    /// One key photolibd touched in `[Context]`: what it was before (nil: absent) and what photolibd appended.
    public struct KeyEdit: Sendable, Equatable, Codable {
        public var key: String
        /// The key's whole line before, exactly as the person wrote it.
        public var before: String?
        public var added: [String]
    }

    public static let group = "Context"
    /// What photolibd changed; empty when it changed nothing.
    public var edits: [KeyEdit]

    public init(edits: [KeyEdit] = []) {
        self.edits = edits
    }

    /// The entries that make the app's Pictures its view: negations of `reach.through`
    /// (the broad ones only when `takeBroad`, then with `grantBack` after them), and the persisted folder.
    public static func wanted(reach: PicturesReach, pictures: String, takeBroad: Bool, grantBack: [String] = []) -> [(key: String, entries: [String])] {
        var negations = ["!xdg-pictures"]
        for name in reach.through where name != "xdg-pictures" && (takeBroad || !reach.broad.contains(name)) {
            negations.append("!" + name)
        }
        return [("filesystems", negations + (takeBroad && !reach.broad.isEmpty ? grantBack : [])), ("persistent", [pictures])]
    }

    /// The folders an app keeps when its `home` or `host` is taken away: the person's everyday
    /// folders but Pictures, as the broad grant gave them (`ro` stays read-only).
    public static let keptFolders = ["xdg-desktop", "xdg-documents", "xdg-download", "xdg-music", "xdg-videos"]
    public static let keptFolderWords = "Desktop, Documents, Downloads, Music and Videos"

    /// `keptFolders` with the broad grant's mode (`home:ro` gives them back `:ro`).
    public static func grantBack(broadModes: [String]) -> [String] {
        let suffix = broadModes.allSatisfy { $0 == "ro" } && !broadModes.isEmpty ? ":ro" : ""
        return keptFolders.map { $0 + suffix }
    }

    /// Whether this record took a broad grant away: the person confirmed it once, and it stays so.
    public var tookBroad: Bool {
        edits.contains { $0.key == "filesystems" && $0.added.contains { ["!home", "!host", "!~"].contains($0) || $0.hasPrefix("!/") } }
    }

    /// What an app with a broad grant loses when it is limited, in a person's words.
    public static func loss(appName: String, broad: [String]) -> String {
        let what = broad.contains("host") ? "every file outside its sandbox" : "your home folder"
        return "Limiting \(appName) takes away \(what) (\(broad.joined(separator: ", "))): it keeps \(keptFolderWords), and its own data."
    }

    /// Appends to each key the entries it lacks, and records exactly what was appended
    /// and what the key was before. An entry the person already wrote is theirs: it is
    /// neither added again nor ever removed.
    public static func apply(_ wanted: [(key: String, entries: [String])], to file: inout KeyFileText) -> PicturesOverride {
        var record = PicturesOverride()
        for (key, entries) in wanted {
            let value = file.value(key, in: group)
            let present = file.list(key, in: group)
            let added = entries.filter { !present.contains($0) }
            guard !added.isEmpty else { continue }
            record.edits.append(KeyEdit(key: key, before: file.line(key, in: group), added: added))
            file.set(key, in: group, to: (value.map(Self.withSeparator) ?? "") + KeyFileText.listValue(added))
        }
        return record
    }

    /// Takes photolibd's entries out. A key nobody touched since is put back as it was,
    /// byte for byte (or removed, when photolibd made it); a key edited since loses
    /// photolibd's entries alone, and keeps everything else.
    public func revert(_ file: inout KeyFileText) {
        for edit in edits.reversed() {
            let present = file.list(edit.key, in: Self.group)
            let original = edit.before.map { KeyFileText(Self.group, line: $0).list(edit.key, in: Self.group) } ?? []
            if present == original + edit.added {
                file.restore(edit.key, in: Self.group, line: edit.before)
                continue
            }
            var remaining = present
            for entry in edit.added {
                if let last = remaining.lastIndex(of: entry) { remaining.remove(at: last) }
            }
            file.set(edit.key, in: Self.group, to: remaining.isEmpty && edit.before == nil ? nil : KeyFileText.listValue(remaining))
        }
    }

    /// Why an app limited by photolibd would not find its view at its next start, from its permissions
    /// as Flatpak merges them now (its override included) and its `persistent` list; nil when it would.
    public static func undone(effective: PicturesReach, persistent: [String], pictures: String) -> String? {
        if effective.reaches {
            return "its permissions reach your Pictures folder again (\(effective.through.joined(separator: ", "))), so it sees every photo"
        }
        if !persistent.contains(pictures) {
            return "its override no longer keeps its own \(pictures) folder (persistent=\(pictures)), so it finds no photo"
        }
        return nil
    }

    /// A raw list value ready for more entries: GLib allows the last `;` to be left out.
    private static func withSeparator(_ value: String) -> String {
        value.isEmpty || value.hasSuffix(";") && !value.hasSuffix("\\;") ? value : value + ";"
    }
}
