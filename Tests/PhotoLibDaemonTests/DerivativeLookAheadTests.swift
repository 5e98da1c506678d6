import Foundation
import Glibc
import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibMetadata
import PhotoLibSystem
import Testing
import TestSupport

/// The copies without location made before the transaction that indexes their
/// files: made by `lookAhead`, adopted by a member row, and put in place (or
/// dropped) when the transaction ends. Real geotagged media, real exiv2.
@Suite("Derivatives made ahead of the transaction")
struct DerivativeLookAheadTests {
    /// A views root and the geotagged media of the location tests, in a temporary directory.
    final class Bench {
        let root: String
        let media: FileDescriptor
        let catalog: DerivativeCatalog

        init() async throws {
            root = try makeTemporaryDirectory("photolibd-derivatives")
            try FileManager.default.createDirectory(atPath: root + "/media", withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: root + "/views", withIntermediateDirectories: false)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("scripts/make-geotagged-media").path
            try await ChildProcess.runSuccessfully(script, [root + "/media"], timeout: 300)
            media = try Directory.open(path: root + "/media")
            catalog = try DerivativeCatalog(viewsRoot: try Directory.open(path: root + "/views"), checks: [:], logger: Logger(label: "test"))
        }

        deinit {
            media.close()
            try? FileManager.default.removeItem(atPath: root)
        }

        func facts(_ name: String) throws -> FileFacts {
            try #require(try Directory.status(of: FileName(name)!, in: media)).facts
        }

        /// Every name in `.derivatives`.
        func derivatives() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: root + "/views/.derivatives"))
        }
    }

    @Test("a geotagged photo looked at ahead is adopted by its member and, once committed, is that member's derivative, without location")
    func adoptedAndCommitted() async throws {
        let bench = try await Bench()
        let name = FileName("photo.jpg")!
        bench.catalog.lookAhead(name, in: bench.media)
        #expect(try bench.derivatives().count == 1, "the stripped copy is made, under a hidden name")
        #expect(try bench.derivatives().allSatisfy { $0.hasPrefix(".") })

        let file = try bench.facts("photo.jpg")
        // In the transaction: the member (row 7) needs a check, and adopts the one made ahead.
        let source = bench.catalog.knownSource(policy: .none, rowID: 7, file: file, name: name)
        guard case .derivative(let inode, let size) = source else {
            Issue.record("expected the derivative made ahead, got \(source)")
            return
        }
        bench.catalog.settleLookAhead(committed: true)
        #expect(try bench.derivatives() == ["m7"])
        var status = stat()
        #expect(stat(bench.root + "/views/.derivatives/m7", &status) == 0)
        #expect(UInt64(status.st_ino) == inode && Int64(status.st_size) == size)
        let copy = try FileCopy.openUntrusted(FileName("m7")!, in: try Directory.open(path: bench.root + "/views/.derivatives"))
        defer { copy.close() }
        #expect(try !LocationStripper.inspect(copy).hasLocation)
        #expect(bench.catalog.takeLearned()[7]?.outcome == .derived(inode: inode, size: size), "the check is stored with the batch")
    }

    @Test("a copy adopted in a transaction that rolls back is removed, and so is one no member adopted; a photo without location gets none")
    func rolledBackAndUnused() async throws {
        let bench = try await Bench()
        bench.catalog.lookAhead(FileName("photo.jpg")!, in: bench.media)
        bench.catalog.lookAhead(FileName("photo.heic")!, in: bench.media)
        bench.catalog.lookAhead(FileName("plain.jpg")!, in: bench.media)
        #expect(try bench.derivatives().count == 2)
        _ = bench.catalog.source(policy: .none, rowID: 3, file: try bench.facts("photo.jpg"), album: nil, name: FileName("photo.jpg")!)
        let plain = bench.catalog.source(policy: .none, rowID: 4, file: try bench.facts("plain.jpg"), album: nil, name: FileName("plain.jpg")!)
        #expect(plain == .original)
        bench.catalog.settleLookAhead(committed: false)
        #expect(try bench.derivatives().isEmpty, "nothing made ahead outlives a rolled-back transaction")
        // With no look made ahead and no album to look in, the member is withheld: never taken for having no location.
        let again = bench.catalog.source(policy: .none, rowID: 3, file: try bench.facts("photo.jpg"), album: nil, name: FileName("photo.jpg")!)
        #expect(again == .withheld(reason: "its album cannot be opened now"))
    }

    @Test("a file changed after its look ahead is not matched: the transaction leaves it to be looked at, and the look after the commit makes its copy")
    func changedAfterTheLook() async throws {
        let bench = try await Bench()
        let name = FileName("photo.jpg")!
        bench.catalog.lookAhead(name, in: bench.media)
        // An edit between the look and the transaction: another size and time.
        let handle = try #require(FileHandle(forWritingAtPath: bench.root + "/media/photo.jpg"))
        handle.seekToEndOfFile()
        handle.write(Data([0]))
        try handle.close()
        let file = try bench.facts("photo.jpg")
        // In the transaction: nothing made ahead matches, and nothing is looked at under the lock.
        #expect(bench.catalog.knownSource(policy: .none, rowID: 9, file: file, name: name) == .needsCheck)
        bench.catalog.settleLookAhead(committed: true)
        #expect(try bench.derivatives().isEmpty, "the stale look's copy is dropped")
        // After the commit, where the view is linked: looked at, and its copy made.
        let source = bench.catalog.source(policy: .none, rowID: 9, file: file, album: bench.media, name: name)
        guard case .derivative = source else {
            Issue.record("expected a derivative made after the commit, got \(source)")
            return
        }
        #expect(try bench.derivatives() == ["m9"], "the member's own copy is in place")
    }

    @Test("what is known of the copies on disk decides under the write lock: listed at start, made and removed since; a look outside it corrects it")
    func knownCopiesOnDisk() async throws {
        let bench = try await Bench()
        let name = FileName("photo.jpg")!
        let file = try bench.facts("photo.jpg")
        _ = bench.catalog.source(policy: .none, rowID: 4, file: file, album: bench.media, name: name)
        guard case .derivative = bench.catalog.knownSource(policy: .none, rowID: 4, file: file, name: name) else {
            Issue.record("the copy just made is not known")
            return
        }
        // A new catalog (a restart) knows it from its listing of .derivatives.
        let restarted = try DerivativeCatalog(viewsRoot: try Directory.open(path: bench.root + "/views"),
                                              checks: [4: try #require(bench.catalog.takeLearned()[4])], logger: Logger(label: "test"))
        guard case .derivative = restarted.knownSource(policy: .none, rowID: 4, file: file, name: name) else {
            Issue.record("the restarted catalog does not know the copy on disk")
            return
        }
        // Lost behind its back: under the lock it is still trusted; the next look outside finds it gone
        // and makes it again, and the lock's answer follows.
        try FileManager.default.removeItem(atPath: bench.root + "/views/.derivatives/m4")
        guard case .derivative = restarted.source(policy: .none, rowID: 4, file: file, album: bench.media, name: name) else {
            Issue.record("the lost copy was not made again")
            return
        }
        #expect(try bench.derivatives() == ["m4"])
        guard case .derivative = restarted.knownSource(policy: .none, rowID: 4, file: file, name: name) else {
            Issue.record("the copy made again is not known")
            return
        }
    }
}
