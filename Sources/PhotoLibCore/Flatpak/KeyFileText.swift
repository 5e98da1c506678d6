/// A GLib key file (Flatpak's metadata and override files) as lines, edited
/// one key at a time so that every line nobody edits — comments, other groups,
/// the person's own keys — stays byte for byte as it was.
///
/// Only what photolibd needs is understood: `[Group]` headers, `key=value`
/// lines and string lists (`a;b;`, with GLib's `\;` and `\\` escapes).
/// Localized keys (`Name[fr]=`) are keys of their own, as GLib reads them.
public struct KeyFileText: Sendable, Equatable {
    /// The file's lines, without their line breaks.
    public private(set) var lines: [String]
    /// Whether the text ended with a line break (GLib's files do).
    private var endsWithNewline: Bool

    public init(_ text: String) {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        endsWithNewline = text.isEmpty || text.hasSuffix("\n")
        if endsWithNewline { parts.removeLast() }
        lines = text.isEmpty ? [] : parts
    }

    /// A one-line file: `line` alone in `group`, to read a recorded line back.
    init(_ group: String, line: String) {
        self.init("[" + group + "]\n" + line + "\n")
    }

    /// The text to write back.
    public var text: String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }

    /// Whether the file holds nothing but blank lines and comments.
    public var isBlank: Bool {
        lines.allSatisfy { let t = $0.trimmingSpaces; return t.isEmpty || t.hasPrefix("#") }
    }

    /// The raw value of `key` in `group`, as written after the `=`; nil when absent.
    public func value(_ key: String, in group: String) -> String? {
        index(of: key, in: group).map { Self.split(lines[$0]).value }
    }

    /// The whole line of `key` in `group`, exactly as written; nil when absent.
    public func line(_ key: String, in group: String) -> String? {
        index(of: key, in: group).map { lines[$0] }
    }

    /// Puts a line back exactly as it was written (`line`), replacing the key's line; nil removes the key.
    public mutating func restore(_ key: String, in group: String, line: String?) {
        guard let line, let at = index(of: key, in: group) else { return set(key, in: group, to: line.map { Self.split($0).value }) }
        lines[at] = line
    }

    /// The entries of a string list (`filesystems=home;!xdg-pictures;`); empty when absent.
    public func list(_ key: String, in group: String) -> [String] {
        value(key, in: group).map(Self.listEntries) ?? []
    }

    /// Sets `key` in `group` to a raw value, adding the group at the end and the key at
    /// the end of its group when they are missing; nil removes the key (and a group left
    /// with no line at all).
    public mutating func set(_ key: String, in group: String, to value: String?) {
        if let line = index(of: key, in: group) {
            if let value { lines[line] = key + "=" + value } else { lines.remove(at: line); removeGroupIfEmpty(group) }
            return
        }
        guard let value else { return }
        guard let header = groupHeader(group) else {
            if let last = lines.last, !last.trimmingSpaces.isEmpty { lines.append("") }
            lines.append("[" + group + "]")
            lines.append(key + "=" + value)
            return
        }
        // After the group's last key, before any blank lines or comments that lead into the next group.
        var insertAt = header + 1
        var line = header + 1
        while line < lines.count, !Self.isHeader(lines[line]) {
            if Self.split(lines[line]).key != nil { insertAt = line + 1 }
            line += 1
        }
        lines.insert(key + "=" + value, at: insertAt)
    }

    /// A string list as GLib writes it: each entry escaped, each followed by `;`.
    public static func listValue(_ entries: [String]) -> String {
        entries.map { escape($0) + ";" }.joined()
    }

    /// The entries of a raw list value, unescaped; empty entries are dropped, as GLib does.
    public static func listEntries(_ value: String) -> [String] {
        var entries: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                switch character {
                case "s": current.append(" ")
                case "n": current.append("\n")
                case "t": current.append("\t")
                case "r": current.append("\r")
                default: current.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ";" {
                if !current.isEmpty { entries.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { entries.append(current) }
        return entries
    }

    private static func escape(_ entry: String) -> String {
        var out = ""
        for character in entry {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    // MARK: Lines

    private static func isHeader(_ line: String) -> Bool {
        let t = line.trimmingSpaces
        return t.hasPrefix("[") && t.hasSuffix("]")
    }

    /// A `key=value` line's key (spaces around it dropped, as GLib does) and value; nil key for anything else.
    private static func split(_ line: String) -> (key: String?, value: String) {
        let t = line.trimmingSpaces
        guard !t.hasPrefix("#"), !isHeader(t), let equals = line.firstIndex(of: "=") else { return (nil, "") }
        let key = String(line[..<equals]).trimmingSpaces
        var value = Substring(line[line.index(after: equals)...])
        while value.first == " " { value = value.dropFirst() }
        return (key.isEmpty ? nil : key, String(value))
    }

    private func groupHeader(_ group: String) -> Int? {
        lines.firstIndex { Self.isHeader($0) && $0.trimmingSpaces == "[" + group + "]" }
    }

    /// The key's line in the group (GLib takes the last of duplicates); nil when absent.
    private func index(of key: String, in group: String) -> Int? {
        guard let header = groupHeader(group) else { return nil }
        var found: Int?
        var line = header + 1
        while line < lines.count, !Self.isHeader(lines[line]) {
            if Self.split(lines[line]).key == key { found = line }
            line += 1
        }
        return found
    }

    private mutating func removeGroupIfEmpty(_ group: String) {
        guard let header = groupHeader(group) else { return }
        var end = header + 1
        while end < lines.count, !Self.isHeader(lines[end]) { end += 1 }
        guard lines[(header + 1)..<end].allSatisfy({ $0.trimmingSpaces.isEmpty }) else { return }
        lines.removeSubrange(header..<end)
        while let last = lines.last, last.trimmingSpaces.isEmpty { lines.removeLast() }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
