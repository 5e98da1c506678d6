import PhotoLibCore
import Testing

@Suite("Inbox rules")
struct InboxPolicyTests {
    func file(_ kind: FileObservation.Kind = .regular, size: Int64 = 1_000, links: UInt64 = 1) -> FileObservation {
        FileObservation(kind: kind, facts: FileFacts(device: 1, inode: 2, size: size, modificationTime: 0, permissions: 0o644), owner: 1000, linkCount: links)
    }

    func admit(_ name: String, _ found: FileObservation, right: InboxPolicy.Right? = .joinsSelection,
               usage: InboxUsage = InboxUsage(files: 0, bytes: 0)) -> Result<MediaType, InboxRefusal> {
        InboxPolicy.admit(FileName(name)!, found: found, right: right, usage: usage,
                          limits: InboxLimits(maxFileBytes: 10_000, dailyBytes: 50_000, dailyFiles: 5), policy: .standard)
    }

    @Test("who may add, and what each learns: limited joins its selection, authorized sees the library, add-only sees nothing")
    func rights() {
        #expect(InboxPolicy.right(readWrite: .limited, addOnly: .notDetermined) == .joinsSelection)
        #expect(InboxPolicy.right(readWrite: .authorized, addOnly: .denied) == .seesLibrary)
        #expect(InboxPolicy.right(readWrite: .denied, addOnly: .authorized) == .addOnly)
        #expect(InboxPolicy.right(readWrite: .notDetermined, addOnly: .notDetermined) == nil)
        #expect(InboxPolicy.right(readWrite: .restricted, addOnly: .denied) == nil)
    }

    @Test("entries still being written, and rejected/ itself, wait")
    func pending() {
        for name in [".IMG_1.jpg.part", "IMG_1.jpg.part", "IMG_1.JPG.TMP", "x.crdownload", "rejected"] {
            #expect(InboxPolicy.isPending(FileName(name)!, policy: .standard), "\(name)")
        }
        #expect(!InboxPolicy.isPending(FileName("IMG_1.jpg")!, policy: .standard))
    }

    @Test("each refusal before a byte is copied, in order, and an accepted file's type")
    func admission() {
        #expect(admit("a.jpg", file()) == .success(.image))
        #expect(admit("a.MOV", file()) == .success(.video))
        #expect(admit("a.jpg", file(), right: nil) == .failure(.notAllowed))
        #expect(admit("a.jpg", file(.symlink)) == .failure(.symlink))
        #expect(admit("a.jpg", file(.other)) == .failure(.notRegular))
        #expect(admit("a.jpg", file(.directory)) == .failure(.notRegular))
        #expect(admit("a.jpg", file(links: 2)) == .failure(.hardLinked(count: 2)))
        #expect(admit("notes.txt", file()) == .failure(.notAnAssetName))
        #expect(admit("a.jpg", file(size: 10_001)) == .failure(.tooLarge(size: 10_001, limit: 10_000)))
        #expect(admit("a.jpg", file(), usage: InboxUsage(files: 5, bytes: 0)) == .failure(.dailyFiles(limit: 5)))
        #expect(admit("a.jpg", file(size: 2_000), usage: InboxUsage(files: 1, bytes: 49_000))
            == .failure(.dailyBytes(size: 2_000, used: 49_000, limit: 50_000)))
        let odd = AssetNamePolicy(imageExtensions: ["xyz"], videoExtensions: [])
        #expect(InboxPolicy.admit(FileName("a.xyz")!, found: file(), right: .addOnly, usage: InboxUsage(files: 0, bytes: 0),
                                  limits: .standard, policy: odd) == .failure(.uncheckableExtension("xyz")))
    }

    @Test("the content must be what the extension names")
    func content() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0, 0]
        let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(InboxPolicy.verify(FileName("a.JPG")!, header: jpeg) == nil)
        #expect(InboxPolicy.verify(FileName("a.heic")!, header: heic) == nil)
        #expect(InboxPolicy.verify(FileName("a.mp4")!, header: mp4) == nil)
        #expect(InboxPolicy.verify(FileName("a.mov")!, header: mp4) == nil)
        #expect(InboxPolicy.verify(FileName("a.png")!, header: png) == nil)
        #expect(InboxPolicy.verify(FileName("a.jpg")!, header: png) == .contentMismatch(extension: "jpg", found: .png))
        #expect(InboxPolicy.verify(FileName("a.jpg")!, header: Array("hello".utf8)) == .contentMismatch(extension: "jpg", found: nil))
        #expect(InboxPolicy.verify(FileName("a.jpg")!, header: []) == .contentMismatch(extension: "jpg", found: nil))
        #expect(MediaSignature.detect(Array("RIFF....WEBPVP8 ".utf8)) == .webp)
        #expect(MediaSignature.detect([0x1A, 0x45, 0xDF, 0xA3]) == .matroska)
        #expect(MediaSignature.detect([0, 0, 0, 8] + Array("moov".utf8)) == .quickTime)
        #expect(AssetNamePolicy.defaultImageExtensions.allSatisfy(MediaSignature.checkableExtensions.contains))
        #expect(AssetNamePolicy.defaultVideoExtensions.allSatisfy(MediaSignature.checkableExtensions.contains))
        for refusal: InboxRefusal in [.notAllowed, .symlink, .notRegular, .hardLinked(count: 2), .notAnAssetName, .uncheckableExtension("x"),
                                      .tooLarge(size: 2, limit: 1), .dailyFiles(limit: 1), .dailyBytes(size: 1, used: 1, limit: 1),
                                      .contentMismatch(extension: "jpg", found: .png), .unreadable(errno: 13), .changedWhileCopied] {
            #expect(refusal.reason.hasSuffix(".") && !refusal.code.isEmpty)
        }
    }

    @Test("an import never overwrites: the next name is 'name (N).ext', within 255 bytes, never cutting a character")
    func naming() {
        let name = FileName("IMG_0001.jpg")!
        #expect(ImportNaming.candidate(for: name, attempt: 1) == name)
        #expect(ImportNaming.candidate(for: name, attempt: 2) == FileName("IMG_0001 (2).jpg"))
        let long = FileName(String(repeating: "é", count: 125) + ".jpg")!  // 254 bytes
        let next = ImportNaming.candidate(for: long, attempt: 12)
        #expect(next.bytes.count <= 255 && next.escaped.hasSuffix(" (12).jpg"))
        #expect(String(validating: next.bytes, as: UTF8.self) != nil)
        #expect(ImportNaming.temporaryName(importID: 7).isHidden)
    }

    @Test("a finished copy: over the limit is too large; a size other than the one announced, or a source that grew meanwhile, changed while copied")
    func judgeCopy() {
        #expect(InboxPolicy.judgeCopy(bytes: 101, limit: 100, expectedSize: 101, sourceSizeNow: 101) == .tooLarge(size: 101, limit: 100))
        #expect(InboxPolicy.judgeCopy(bytes: 50, limit: 100, expectedSize: 60, sourceSizeNow: 60) == .changedWhileCopied)
        #expect(InboxPolicy.judgeCopy(bytes: 60, limit: 100, expectedSize: 60, sourceSizeNow: 70) == .changedWhileCopied)
        #expect(InboxPolicy.judgeCopy(bytes: 100, limit: 100, expectedSize: 100, sourceSizeNow: 100) == nil)
    }
}
