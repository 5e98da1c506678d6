/// Which member files of one album belong together as a Live Photo: the pure
/// rule behind every pairing, used after events and scans alike.
///
/// A Live Photo is an image and a video in the same directory with the same
/// stem (`IMG_1.HEIC` + `IMG_1.MOV`; the stem compared byte for byte, the
/// extensions already classified case-insensitively by `AssetNamePolicy`).
/// A stem with more than one image or more than one video (`IMG_1.JPG`,
/// `IMG_1.HEIC` and `IMG_1.MOV`) is ambiguous and pairs nothing.
///
/// Identity rules, so nobody loses a selection and no new file brings an old
/// grant to another photo:
/// - when two assets become one, the older asset (the lower row) keeps its ID
///   and the other's member joins it: a video added later joins its photo, and
///   a photo added later joins the video that was there first;
/// - when a pair breaks (a member renamed, moved or gone), the image keeps the
///   asset and the video becomes an asset of its own; a lone member keeps the
///   ID whatever it is.
public enum LivePairing {
    /// One member file of an album, as pairing needs to know it.
    public struct Member: Sendable, Equatable {
        public var rowID: Int64
        /// The asset row the member belongs to now.
        public var asset: Int64
        public var name: FileName
        public var mediaType: MediaType

        public init(rowID: Int64, asset: Int64, name: FileName, mediaType: MediaType) {
            self.rowID = rowID
            self.asset = asset
            self.name = name
            self.mediaType = mediaType
        }
    }

    /// One change to the grouping.
    public enum Edit: Sendable, Equatable {
        /// The member moves into `asset` (its old asset, if left empty, goes; its selections join `asset`).
        case join(member: Int64, asset: Int64)
        /// The member leaves its asset for a new one of its own.
        case split(member: Int64)
    }

    /// The edits that make an album's grouping match the rule.
    ///
    /// - Parameters:
    ///   - members: every member file in the album.
    ///   - memberCounts: how many members each of their assets has in all
    ///     (a member moved to another album may still belong to an asset here).
    public static func plan(_ members: [Member], memberCounts: [Int64: Int]) -> [Edit] {
        var byStem: [[UInt8]: [Member]] = [:]
        for member in members where !member.name.isHidden {
            byStem[member.name.stem, default: []].append(member)
        }
        var edits: [Edit] = []
        var paired: Set<Int64> = []
        for group in byStem.values {
            let images = group.filter { $0.mediaType == .image }
            let videos = group.filter { $0.mediaType == .video }
            guard images.count == 1, videos.count == 1 else { continue }
            let (image, video) = (images[0], videos[0])
            paired.formUnion([image.rowID, video.rowID])
            guard image.asset != video.asset else { continue }
            if video.asset < image.asset {
                edits.append(.join(member: image.rowID, asset: video.asset))
            } else {
                edits.append(.join(member: video.rowID, asset: image.asset))
            }
        }
        // A member grouped with others it no longer pairs with: the video leaves.
        for member in members where !paired.contains(member.rowID) && member.mediaType == .video {
            if (memberCounts[member.asset] ?? 1) > 1 { edits.append(.split(member: member.rowID)) }
        }
        return edits.sorted { order($0) < order($1) }
    }

    /// Whether files new to an album may change its grouping at all: only when a new name's stem
    /// is another name's too (a partner, or a third file that makes a pair ambiguous). An album
    /// of files new and alone in their stems, a first start's almost always, needs no pairing.
    /// Files gone from an album are the caller's to count: a pair they leave may have to split.
    public static func mayGroup(newNames: some Sequence<FileName>, besides known: some Sequence<FileName>) -> Bool {
        var stems = Set(known.lazy.map(\.stem))
        for name in newNames where !stems.insert(name.stem).inserted {
            return true
        }
        return false
    }

    /// Splits first, then joins, each by member row: deterministic, and a
    /// join never lands in an asset a split is about to leave.
    private static func order(_ edit: Edit) -> (Int, Int64) {
        switch edit {
        case .split(let member): return (0, member)
        case .join(let member, _): return (1, member)
        }
    }
}
