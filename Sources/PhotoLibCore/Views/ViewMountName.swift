/// How photolibd-viewfs names its mounts (the source field of the mount table, its `fsname`):
/// `photolibd:`, the tag of the daemon's views directory, `:`, and a number the server draws. A daemon
/// recovers at start the mounts its own killed predecessor left, and never those of another daemon
/// (another state and views directory) serving other apps in the same home; a server's unmounter
/// takes down its own mount and no other.
public enum ViewMountName {
    /// The tag of a views directory: 16 hexadecimal digits of FNV-1a over its path.
    public static func tag(ofViews path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether a mount named `source` may have been left by a daemon of the views directory tagged
    /// `tag`: tagged so, or untagged (servers before the tag named every mount `photolibd`, or
    /// `photolibd:` and their number), which only a daemon of that home can have made.
    public static func isOurs(source: String, tag: String) -> Bool {
        guard source == "photolibd" || source.hasPrefix("photolibd:") else { return false }
        let parts = source.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count <= 2 || parts[1] == Substring(tag)
    }
}
