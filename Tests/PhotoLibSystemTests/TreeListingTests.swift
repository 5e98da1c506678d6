import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibSystem
import Synchronization
import Testing

/// The full scan's walk, listed on several threads before its transaction.
@Suite("The whole library listed on every core")
struct TreeListingTests {
    /// 30 albums, two deep, with a file each; a hidden folder, never walked; and, when asked, an album nobody may enter.
    func makeTree() throws -> String {
        var template = Array("/tmp/photolibd-tree-XXXXXX".utf8CString)
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

    static let list: @Sendable (FileDescriptor) -> Lookup<[DirectoryPlan.Entry]> = { LibraryListing.list($0, policy: .standard) }

    @Test("each listing is the directory's own, whatever thread made it; hidden folders are not walked", arguments: [1, 2, 4])
    func listings(threads: Int) throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        let listings = TreeListing.list(root: .found(try Directory.reopen(fd)), threads: threads, list: Self.list)
        var paths: [RelativePath] = [.root]
        for album in 0..<10 { for sub in ["", "/a", "/a/b"] { paths.append(RelativePath(escaped: "Album\(album)\(sub)")!) } }
        #expect(Set(listings.keys) == Set(paths), "every album once, and nothing else")
        for path in paths {
            let directory = try Directory.open(path, in: fd)
            defer { directory.close() }
            #expect(listings[path] == Self.list(directory), "\(path.escaped)")
        }
    }

    @Test("each listing is handed on once as it is made, always after the listing of the directory it is in", arguments: [1, 2, 4])
    func deliveredInOrder(threads: Int) throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        let order = Mutex<[RelativePath]>([])
        let listings = TreeListing.list(root: .found(try Directory.reopen(fd)), threads: threads, list: Self.list,
                                        delivered: { path, _ in order.withLock { $0.append(path) } })
        let delivered = order.withLock { $0 }
        #expect(delivered.count == listings.count && Set(delivered) == Set(listings.keys), "each listing once")
        for (index, path) in delivered.enumerated() {
            guard let parent = path.parent else { continue }
            #expect(delivered.prefix(index).contains(parent), "\(path.escaped) came before \(parent.escaped)")
        }
    }

    @Test("a directory that cannot be listed is in the result as unreadable, with why, and nothing below it is; a root that cannot be opened is said so")
    func unreadable() throws {
        let root = try makeTree()
        defer {
            chmod(root + "/Album4", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        let fd = try Directory.open(path: root)
        defer { fd.close() }
        let failure = FileSystemFailure(call: "getdents64", errno: EACCES)
        let none = TreeListing.list(root: .unreadable(failure), threads: 2, list: Self.list)
        #expect(none.count == 1 && none[.root] == .unreadable(failure))

        // Album3's listing fails (as getdents64 does on a directory its reader may not list).
        var locked = stat()
        #expect(stat(root + "/Album3", &locked) == 0)
        let inode = locked.st_ino
        let listings = TreeListing.list(root: .found(try Directory.reopen(fd)), threads: 2) { directory in
            var found = stat()
            return fstat(directory.rawValue, &found) == 0 && found.st_ino == inode ? .unreadable(failure) : Self.list(directory)
        }
        #expect(listings[RelativePath(escaped: "Album3")!] == .unreadable(failure))
        #expect(listings[RelativePath(escaped: "Album3/a")!] == nil, "nothing below it is known")
        #expect(listings.count == 29, "the root and every other album")

        // And one its reader may not even open: only an ordinary user is refused (root enters any directory).
        guard getuid() != 0 else { return }
        chmod(root + "/Album4", 0o000)
        let refused = TreeListing.list(root: .found(try Directory.reopen(fd)), threads: 2, list: Self.list)
        guard case .unreadable(let why)? = refused[RelativePath(escaped: "Album4")!] else {
            Issue.record("Album4: \(String(describing: refused[RelativePath(escaped: "Album4")!]))")
            return
        }
        #expect(why.errno == EACCES)
    }
}
