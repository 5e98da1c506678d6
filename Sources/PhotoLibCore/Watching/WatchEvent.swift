/// A library change as the watcher reports it, with paths relative to the library root.
///
/// Paths are as they were at the moment of the event in the kernel's event
/// order; applying events in order therefore keeps the index consistent.
public enum WatchEvent: Sendable, Equatable {
    /// The watches on the whole tree are in place: a full scan now misses nothing.
    case watchesReady(failedDirectories: Int)
    /// A file was closed after writing: it is complete.
    case fileWritten(RelativePath)
    /// A name appeared without being written (a hardlink, or a file still being written).
    case fileCreated(RelativePath)
    /// Mode, owner, timestamps or ACL changed.
    case attributesChanged(RelativePath)
    /// A directory's mode, owner or ACL changed: what could not be read may be readable now (or the reverse).
    case directoryAttributesChanged(RelativePath)
    /// A file or directory was renamed inside the library.
    case moved(from: RelativePath, to: RelativePath, isDirectory: Bool)
    /// Something arrived from outside the library (or from a rename whose other half was lost).
    case movedIn(RelativePath, isDirectory: Bool)
    /// Something was deleted, or left the library by a rename.
    case removed(RelativePath, isDirectory: Bool)
    /// A directory was created; its watches are set up and it needs a scan.
    case directoryCreated(RelativePath)
    /// The kernel dropped events: only a full rescan restores the truth.
    case overflow
    /// The library root itself was deleted, moved or unmounted.
    case rootGone
    /// A verification round found a directory's entries changed (its stamp moved) where no watch
    /// follows it: it is listed again, it alone (its known sub-albums have rounds of their own).
    case directoryChanged(RelativePath)
    /// A watch could not be added (for example the inotify watch limit); the index may miss changes there.
    case watchFailed(RelativePath, errno: Int32)
}
