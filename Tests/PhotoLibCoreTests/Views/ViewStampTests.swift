import PhotoLibCore
import Testing

/// Which view directories a start takes as right by the stamps a clean stop left: git's racily
/// clean rule, the albums the scan changed, and the views' fingerprint.
@Suite("View stamps")
struct ViewStampTests {
    static let app = AppID("org.example.Viewer")!
    static let stamp = ViewStamp(device: 8, inode: 100, birthTime: 50, changeTime: 1_000, modificationTime: 900)
    static let stamps = ViewStamps(sentinel: 2_000, fingerprint: "v1", directories: [app: [1: stamp, 2: stamp]])

    @Test("a directory as it was, its ctime before the sentinel's and its album unchanged, is trusted")
    func trusted() throws {
        let trust = try #require(Self.stamps.trust(for: Self.app, fingerprint: "v1", changedAlbums: []))
        #expect(trust.trusts(1, now: Self.stamp))
        #expect(!trust.trusts(3, now: Self.stamp), "a directory with no stamp (made since) is read")
    }

    @Test("any field changed, a ctime not before the sentinel's, or its album changed by the scan: read")
    func untrusted() throws {
        let trust = try #require(Self.stamps.trust(for: Self.app, fingerprint: "v1", changedAlbums: [2]))
        #expect(!trust.trusts(2, now: Self.stamp), "its album changed while the daemon was down")
        for changed in [
            ViewStamp(device: 9, inode: 100, birthTime: 50, changeTime: 1_000, modificationTime: 900),
            ViewStamp(device: 8, inode: 101, birthTime: 50, changeTime: 1_000, modificationTime: 900),
            ViewStamp(device: 8, inode: 100, birthTime: 51, changeTime: 1_000, modificationTime: 900),
            ViewStamp(device: 8, inode: 100, birthTime: nil, changeTime: 1_000, modificationTime: 900),
            ViewStamp(device: 8, inode: 100, birthTime: 50, changeTime: 1_001, modificationTime: 900),
            ViewStamp(device: 8, inode: 100, birthTime: 50, changeTime: 1_000, modificationTime: 901),
        ] {
            #expect(!trust.trusts(1, now: changed), "\(changed)")
        }
        // Stamped in the very tick of the sentinel: a change after the look could have left the same ctime.
        let racy = ViewStamp(device: 8, inode: 100, birthTime: 50, changeTime: 2_000, modificationTime: 900)
        let racyStamps = ViewStamps(sentinel: 2_000, fingerprint: "v1", directories: [Self.app: [1: racy]])
        #expect(try #require(racyStamps.trust(for: Self.app, fingerprint: "v1", changedAlbums: [])).trusts(1, now: racy) == false)
    }

    @Test("stamps made under another version or configuration, or none for the app: nothing is trusted")
    func nothing() {
        #expect(Self.stamps.trust(for: Self.app, fingerprint: "v2", changedAlbums: []) == nil)
        #expect(Self.stamps.trust(for: AppID("org.example.Other")!, fingerprint: "v1", changedAlbums: []) == nil)
    }
}
