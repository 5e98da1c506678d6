import Foundation
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibSystem

/// `--to-jpeg --from-preview`: a raw file on standard input, the JPEG preview it carries written
/// to standard output as a file of its own with the raw file's metadata (the daemon then applies
/// the app's metadata rules to it, as to any JPEG it converts). Debian's libvips decodes no raw
/// file; the camera's own rendering, full size in most raw files today, is what a viewer shows.
///
/// In this process, with the converter's limits, rather than in the daemon: the preview is read
/// from a file the daemon did not make.
enum PreviewExtractor {
    static func run(memoryBytes: UInt64) -> Int32 {
        do {
            try ResourceLimit.limitAddressSpace(memoryBytes)
            try ResourceLimit.limitCPU(seconds: 60)
        } catch {
            return fail("\(error)")
        }
        let input = Array("/proc/self/fd/0".utf8)
        let previews: [EmbeddedPreview]
        do {
            guard let found = try RawPreviews.previews(path: input) else {
                return fail("exiv2 does not know this raw format, so no preview of it can be read")
            }
            previews = found
        } catch {
            return fail("its previews cannot be read: \(error)")
        }
        switch EmbeddedPreview.choose(previews) {
        case .none:
            return fail("it carries no JPEG preview, and a raw file's own data cannot be decoded here (Debian's libvips has no raw loader)")
        case .tooSmall(let width, let height):
            return fail("its largest JPEG preview is \(width) × \(height), a thumbnail rather than the photo")
        case .preview(let index):
            do {
                guard let jpeg = try RawPreviews.jpeg(path: input, index: index) else {
                    return fail("its preview could not be read again")
                }
                try PositionalIO.write(FileDescriptor(rawValue: 1), jpeg, at: 0)
                return 0
            } catch {
                return fail("its preview cannot be written as a JPEG: \(error)")
            }
        }
    }

    private static func fail(_ why: String) -> Int32 {
        FileHandle.standardError.write(Data("\(why)\n".utf8))
        return 1
    }
}
