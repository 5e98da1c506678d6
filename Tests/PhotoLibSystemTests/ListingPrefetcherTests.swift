import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibSystem
import Testing

/// The full scan's listings made ahead on another thread.
@Suite("Listings made ahead of the scan")
struct ListingPrefetcherTests {
    /// 30 albums, two deep, with a file each; and a hidden folder, never walked.
    func makeTree() throws -> String {
        var template = Array("/tmp/photolibd-prefetch-XXXXXX".utf8CString)
        let root = String(cString: try #require(mkdtemp(&template)))
        for album in 0..<10 {
            for sub in ["", "/a", "/a/b"] {
                try FileManager.default.createDirectory(atPath: root + "/Album\(album)\(sub)", withIntermediateDirectories: true)
                try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/Album\(album)\(sub)/IMG.jpg"))
            }
        }
        try FileManager.default.createDirectory(atPath: root + "/.Trash-1000/files", withIntermediateDirectories: true)
        return root
    }

    func waitForTheWalk(_ prefetcher: ListingPrefetcher) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !prefetcher.hasFinished {
            guard ContinuousClock.now < deadline else { throw TestFailure("the walk did not end") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static let list: @Sendable (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]> = { LibraryListing.list($0, policy: .standard) }

    @Test("each listing handed over is the directory's own; hidden folders are not walked; the walk ends")
    func listings() async throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        let prefetcher = try ListingPrefetcher(root: fd, limit: 64, list: Self.list)
        try await waitForTheWalk(prefetcher)
        var paths: [RelativePath] = [.root]
        for album in 0..<10 { for sub in ["", "/a", "/a/b"] { paths.append(RelativePath(escaped: "Album\(album)\(sub)")!) } }
        for path in paths {
            let listing = try #require(prefetcher.take(path), "\(path.escaped) was listed ahead")
            let directory = try Directory.open(path, in: fd)
            defer { directory.close() }
            #expect(listing == Self.list(directory), "\(path.escaped)")
        }
        #expect(prefetcher.take(RelativePath(escaped: ".Trash-1000")!) == nil)
        #expect(prefetcher.taken == (made: 31, missed: 1))
        prefetcher.stop()
    }

    @Test("a directory the index listed itself, before the walk got there, is never handed over afterwards")
    func listedByTheIndexFirst() async throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        // Taken before the walk can have reached it (the root is listed first, then the albums).
        let prefetcher = try ListingPrefetcher(root: fd, limit: 64, list: Self.list)
        let deep = RelativePath(escaped: "Album0/a/b")!
        let first = prefetcher.take(deep)
        try await waitForTheWalk(prefetcher)
        if first == nil { #expect(prefetcher.take(deep) == nil, "the index's own listing stands") }
        prefetcher.stop()
    }

    @Test("stopped while held back by its limit, with listings nobody took, the walk ends and the prefetcher is freed (a semaphore here once killed the daemon)")
    func stoppedFull() async throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        // 31 directories, room for 4: the walk holds back until stopped.
        var prefetcher: ListingPrefetcher? = try ListingPrefetcher(root: fd, limit: 4, list: Self.list)
        prefetcher?.stop()
        try await waitForTheWalk(prefetcher!)
        // Freed once its thread lets go: a trap then would end this whole test process.
        prefetcher = nil
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
