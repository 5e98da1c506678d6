public import Foundation
public import PhotoLibCore
public import PhotoLibProtocol
import PhotoLibSystem

/// The files of a pick, as the app receives them.
public struct PickedFiles: @unchecked Sendable {
    // @unchecked: FileHandle is a class without Sendable conformance; each
    // handle is owned by whoever holds this value.
    public let result: PickResult
    /// One handle per file, in the order of `result.assets` and their `files`;
    /// read-only; each closes its descriptor when released.
    public let handles: [FileHandle]
}

extension PhotoLibConnection {
    /// Asks the person to choose photos to hand over once (PHPickerViewController).
    ///
    /// Returns when the person has answered, which may take minutes: give the
    /// connection no receive timeout. The files arrive as read-only
    /// descriptors, in the person's order; a Live Photo is its two files when
    /// `types` holds `live`. A cancelled pick returns no files. Nothing is
    /// added to the app's view, and nothing stays granted.
    ///
    /// With `notify: false` (the library's owner only) the person gets no desktop
    /// notification: the caller opens the request's sheet itself.
    ///
    /// With `accepts` (MIME types the app reads: `image/jpeg`, `image/*`), a chosen photo of another type
    /// arrives as a JPEG made from it when the app reads JPEG (its file's `converted` says from what).
    public func pick(app: String? = nil, types: Set<MediaType> = Set(MediaType.allCases), limit: Int = 1, ordered: Bool = false,
                     notify: Bool = true, accepts: [String] = []) throws(PhotoLibError) -> PickedFiles {
        let names = MediaType.allCases.filter(types.contains).map(\.rawValue)
        let result = try call(.pick, PickParams(app: app, types: names, limit: limit, ordered: ordered, notify: notify ? nil : false,
                                                accepts: accepts.isEmpty ? nil : accepts),
                              returning: PickResult.self)
        // Every descriptor of the reply came with its bytes, before its newline.
        let count = result.descriptorCount
        guard receivedDescriptors.count >= count else {
            let dropped = descriptorsDropped
            for fd in receivedDescriptors { fd.close() }
            receivedDescriptors = []
            throw dropped
                ? .protocolMismatch("the kernel dropped files passed with the pick: this process has too many open files; raise its limit (ulimit -n)")
                : .protocolMismatch("the pick's reply names \(count) files, and \(receivedDescriptors.count) came with it")
        }
        let taken = receivedDescriptors.prefix(count)
        receivedDescriptors.removeFirst(count)
        return PickedFiles(result: result, handles: taken.map { FileHandle(fileDescriptor: $0.rawValue, closeOnDealloc: true) })
    }
}
