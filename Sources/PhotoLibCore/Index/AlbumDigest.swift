/// A keyed digest of one album's entries as a scan compares them: each asset file's name, inode
/// facts and refusal, and each sub-album's name. Entries are digested one by one and summed, so the
/// order they come in does not matter (a listing's is the filesystem's, the rows' the index's).
///
/// The digest the rows gave at a clean stop against the one the start's walk gives of the
/// listing: equal, and the scan's comparison of the two, name by name, would find nothing to do
/// (`AlbumDigests`). The key is drawn anew at every stop and kept in the store, which only the
/// owner can read: a file cannot be made to digest like another without it.
public struct AlbumDigest: Sendable, Equatable, Hashable {
    /// The entries' 128-bit digests, summed (each half modulo 2^64).
    public private(set) var low: UInt64
    public private(set) var high: UInt64
    public private(set) var entries: Int

    public init(low: UInt64 = 0, high: UInt64 = 0, entries: Int = 0) {
        self.low = low
        self.high = high
        self.entries = entries
    }

    /// The key of one stop's digests.
    public struct Key: Sendable, Equatable {
        public let k0: UInt64
        public let k1: UInt64

        public init(k0: UInt64, k1: UInt64) {
            self.k0 = k0
            self.k1 = k1
        }

        public static func random() -> Key {
            var generator = SystemRandomNumberGenerator()
            return Key(k0: generator.next(), k1: generator.next())
        }
    }

    /// Adds an asset file, as the index holds it or as a listing found it (with the refusal judged of it).
    public mutating func addFile(name: FileName, facts: FileFacts, refusal: LinkRefusal?, key: Key) {
        var stream = SipHash.WordStream(k0: key.k0, k1: key.k1)
        stream.feed(1)  // a file
        stream.feed(bytes: name.bytes)
        stream.feed(facts.device)
        stream.feed(facts.inode)
        stream.feed(facts.birthTime == nil ? 0 : 1)
        stream.feed(UInt64(bitPattern: facts.birthTime ?? 0))
        stream.feed(UInt64(bitPattern: facts.size))
        stream.feed(UInt64(bitPattern: facts.modificationTime))
        stream.feed(UInt64(facts.permissions))
        stream.feed(bytes: Array((refusal?.rawValue ?? "").utf8))
        add(stream.finish())
    }

    /// Adds a sub-album, by its name.
    public mutating func addAlbum(name: FileName, key: Key) {
        var stream = SipHash.WordStream(k0: key.k0, k1: key.k1)
        stream.feed(2)  // an album
        stream.feed(bytes: name.bytes)
        add(stream.finish())
    }

    private mutating func add(_ digest: (UInt64, UInt64)) {
        low &+= digest.0
        high &+= digest.1
        entries += 1
    }
}

extension AlbumDigest {
    /// The digest of a directory's listing as `DirectoryPlan` reads it (the same entries, the same
    /// refusals), and its count of asset files; nil when the listing holds an entry that could not be
    /// looked up: only the plan says what to keep of it.
    public static func of(listing entries: [DirectoryPlan.Entry], policy: AssetNamePolicy, daemonUID: UInt32,
                          key: Key) -> (digest: AlbumDigest, files: Int)? {
        var digest = AlbumDigest()
        var files = 0
        for entry in entries {
            switch entry.kind {
            case .directory:
                if LibraryScope.isAlbumName(entry.name) { digest.addAlbum(name: entry.name, key: key) }
            case .file(let lookup):
                guard policy.mediaType(of: entry.name) != nil else { continue }
                switch lookup {
                case .gone: continue
                case .unreadable: return nil
                case .found(let found):
                    guard found.kind == .regular else { continue }
                    files += 1
                    digest.addFile(name: entry.name, facts: found.facts, refusal: LinkRefusal.judge(found, daemonUID: daemonUID), key: key)
                }
            }
        }
        return (digest, files)
    }
}
