/// Whether photolibd may run a helper program it found (photolibd-inotify, photolibd-thumbnailer).
///
/// The daemon starts its helpers itself, with its own rights over the library: a helper anyone
/// else could replace would run as the library's owner. Only a regular file owned by root or by
/// the user photolibd runs as, and writable by no one else, in a directory of the same kind, is run.
/// In a user namespace (systemd's `PrivateUsers=yes`, as the user unit has) root's files show the
/// kernel's overflow uid: the caller then trusts that uid as it would root.
public enum HelperTrust {
    /// What photolibd sees of a file or directory: enough to judge it.
    public struct Facts: Sendable, Equatable {
        public var isRegularFile: Bool
        public var isDirectory: Bool
        public var owner: UInt32
        /// The permission bits (`st_mode & 0o7777`).
        public var mode: UInt32

        public init(isRegularFile: Bool, isDirectory: Bool, owner: UInt32, mode: UInt32) {
            self.isRegularFile = isRegularFile
            self.isDirectory = isDirectory
            self.owner = owner
            self.mode = mode
        }
    }

    /// Why the helper `file` in `directory` may not be run by a process of uid `runningAs`, or nil when it may.
    /// - Parameter rootShownAs: the uid root's files show here, other than 0 (the overflow uid, in a user namespace).
    public static func refusal(file: Facts, directory: Facts, runningAs uid: UInt32, rootShownAs: UInt32? = nil) -> String? {
        var trusted: Set<UInt32> = [0, uid]
        if let rootShownAs { trusted.insert(rootShownAs) }
        guard file.isRegularFile else { return "not a regular file" }
        if !trusted.contains(file.owner) { return "owned by uid \(file.owner), neither root nor the user photolibd runs as (uid \(uid))" }
        if file.mode & 0o022 != 0 { return "writable by its group or by everyone (mode \(String(file.mode, radix: 8)))" }
        if file.mode & 0o6000 != 0 { return "setuid or setgid (mode \(String(file.mode, radix: 8)))" }
        guard directory.isDirectory else { return "in something that is not a directory" }
        if !trusted.contains(directory.owner) {
            return "in a directory owned by uid \(directory.owner), neither root nor the user photolibd runs as (uid \(uid))"
        }
        if directory.mode & 0o022 != 0 { return "in a directory others may write to (mode \(String(directory.mode, radix: 8))), where it could be swapped" }
        return nil
    }
}
