/// What `/etc/fuse.conf` allows an ordinary user's FUSE mounts (fuse(8)): only `user_allow_other`
/// matters to photolibd, which lets a view be mounted `allow_other`, so that an app under a uid of
/// its own can read it. Root's to set; a package may not edit it.
public enum FuseConfiguration {
    /// Whether the file's text sets `user_allow_other` (a line of that word alone, spaces aside;
    /// `#` starts a comment, as fusermount3 reads it).
    public static func allowsOther(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: " \t\r") == "user_allow_other"
        }
    }
}
