import Foundation
import Glibc
import Logging
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibSystem
import Testing

/// A view directory's links shared among the cores: every entry the very
/// file judged, refusals learned for the right file, in the order asked.
@Suite("Linking a directory's entries on every core")
struct ParallelLinkTests {
    @Test("600 entries (past the threshold): each linked to its original's inode; a file others may write is refused and learned; one gone is skipped")
    func manyLinks() throws {
        let temporary = try TemporaryViews(["lib/Album", "views/app"])
        let root = temporary.root
        var links: [(source: ViewMaintainer.LinkSource, entry: FileName)] = []
        var inodes: [String: UInt64] = [:]
        for index in 0..<600 {
            let name = "IMG_\(index).jpg"
            let path = root + "/lib/Album/" + name
            try Data("photo \(index)".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, index == 17 ? 0o666 : 0o644)  // 17: writable by others, never shared
            var st = stat()
            stat(path, &st)
            inodes[name] = UInt64(st.st_ino)
            links.append((ViewMaintainer.LinkSource(album: RelativePath(escaped: "Album")!, name: FileName(name)!,
                                                    inode: UInt64(st.st_ino), rowID: Int64(index),
                                                    stamp: ContentStamp(size: Int64(st.st_size), modificationTime: 0)), FileName(name)!))
        }
        unlink(root + "/lib/Album/IMG_42.jpg")  // 42: gone since it was indexed
        #expect(links.count >= ViewMaintainer.parallelLinkThreshold)

        let maintainer = temporary.maintainer
        let view = try Directory.open(path: root + "/views/app")
        defer { view.close() }
        let outcomes = try maintainer.link(links, in: view, app: AppID("org.example.Test")!)

        #expect(outcomes.count == 600)
        #expect(outcomes[17] == .refused(.writableByOthers))
        #expect(outcomes[42] == .skipped)
        #expect(outcomes.enumerated().allSatisfy { $0.offset == 17 || $0.offset == 42 || $0.element == .linked })
        #expect(maintainer.takeLearnedRefusals() == [17: .writableByOthers])
        let entries = try FileManager.default.contentsOfDirectory(atPath: root + "/views/app")
        #expect(entries.count == 598 && !entries.contains { $0.hasPrefix(".") })
        for name in entries {
            var st = stat()
            stat(root + "/views/app/" + name, &st)
            #expect(UInt64(st.st_ino) == inodes[name], "\(name) is its original")
        }
        // Again: every entry is there already, the very file; nothing is replaced.
        #expect(try maintainer.link(links, in: view, app: AppID("org.example.Test")!).filter { $0 == .linked }.count == 598)
    }
}
