/// One line of /proc/self/mountinfo, as much of it as photolibd needs: where something is
/// mounted, and what. (proc(5): `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPEROPTIONS`.)
public struct MountInfoLine: Sendable, Equatable {
    /// The mount point, its octal escapes (`\040` for a space) decoded.
    public var mountPoint: String
    /// The filesystem type: `fuse.photolibd-view` for a view photolibd-viewfs serves.
    public var type: String
    public var source: String

    /// The type photolibd-viewfs's mounts carry (its `subtype=` option).
    public static let viewType = "fuse.photolibd-view"

    public init(mountPoint: String, type: String, source: String) {
        self.mountPoint = mountPoint
        self.type = type
        self.source = source
    }

    /// Parses a line; nil for one not in the kernel's format.
    public init?(_ line: Substring) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 10, let separator = fields[6...].firstIndex(of: "-"), separator + 2 < fields.count else { return nil }
        mountPoint = Self.unescape(fields[4])
        type = String(fields[separator + 1])
        source = Self.unescape(fields[separator + 2])
    }

    /// Every line of a mountinfo text that parses.
    public static func parse(_ text: String) -> [MountInfoLine] {
        text.split(separator: "\n").compactMap { MountInfoLine($0) }
    }

    /// The kernel escapes space, tab, newline and backslash as `\ooo`.
    static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 4 <= utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)..<(index + 4)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
