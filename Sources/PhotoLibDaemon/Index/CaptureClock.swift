import PhotoLibCore
import PhotoLibMetadata
import PhotoLibSystem

/// When a member file was taken, for rule grants (SPEC §9): EXIF
/// `DateTimeOriginal` (or `DateTimeDigitized`, or XMP's dates), a video's
/// `mvhd` creation time, else the file's modification time.
///
/// Looked at only while some app has a rule grant: the index asks when a file
/// is added or its content changes, and the engine for every file not looked
/// at yet when the first rule is made.
struct CaptureClock {
    let access: any LibraryLooking

    /// Nil when the file cannot be opened now (it went, or its album cannot
    /// be read): it is looked at again with its next change.
    func takenAt(album: RelativePath, name: FileName, file: FileFacts) -> Int64? {
        guard let directory = access.directory(album) else { return nil }
        let fd: FileDescriptor
        do {
            fd = try FileCopy.openUntrusted(name, in: directory)
        } catch {
            return nil
        }
        defer { fd.close() }
        let modified = file.modificationTime / 1_000_000_000
        let finding: LocationStripper.Finding
        do {
            finding = try LocationStripper.inspect(fd)
        } catch {
            return modified  // metadata that cannot be read holds no date photolibd can trust: the file's own time
        }
        if let text = finding.captureDate, let time = CaptureTime.parse(text), let seconds = LocalTime.seconds(time) {
            return seconds
        }
        return finding.movieCreated ?? modified
    }
}
