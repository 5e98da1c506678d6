/// A rule grant (SPEC §9): every asset taken in a span of time, optionally of
/// one type: `select APP --taken-from DATE --taken-to DATE [--type live]`.
///
/// A live selection, like an album grant: an asset joins the moment it is
/// indexed with a capture time in the span, and leaves when it no longer
/// matches. The capture time is EXIF `DateTimeOriginal` (or its XMP forms),
/// a video's creation time, else the file's modification time (`CaptureTime`).
public struct CaptureRule: Sendable, Equatable, Hashable {
    /// The rule's number, for `deselect --rule`.
    public var id: Int64
    /// Seconds since the epoch, inclusive.
    public var from: Int64
    /// Seconds since the epoch, exclusive.
    public var to: Int64
    /// `image`, `video` or `live`; any when nil.
    public var mediaType: MediaType?

    public init(id: Int64, from: Int64, to: Int64, mediaType: MediaType?) {
        self.id = id
        self.from = from
        self.to = to
        self.mediaType = mediaType
    }

    /// Whether the asset is granted by this rule (an asset whose capture time is not known yet is not).
    public func matches(_ asset: LocatedAsset) -> Bool {
        guard let taken = asset.takenAt, from <= taken, taken < to else { return false }
        return mediaType == nil || asset.mediaType == mediaType
    }

    /// A span given on the command line: both ends, `from` before `to`.
    public static func validate(from: Int64, to: Int64) throws(PhotoLibError) {
        guard from < to else {
            throw .invalidParameter(name: "taken-to", reason: "the span ends before it starts; give --taken-from earlier than --taken-to")
        }
    }

    /// What `select` with `--taken-from`/`--taken-to` asks for, checked: both
    /// ends, in order, a known type, and no end of its own (a rule lasts until
    /// it is deselected; `--for` and `--until` are for assets and albums).
    public static func requested(from: Int64?, to: Int64?, type: String?, lasting: Bool) throws(PhotoLibError)
        -> (from: Int64, to: Int64, mediaType: MediaType?) {
        guard let from, let to else {
            throw .invalidParameter(name: from == nil ? "taken-from" : "taken-to",
                                    reason: "a rule grant needs both ends: --taken-from DATE --taken-to DATE")
        }
        guard !lasting else {
            throw .invalidParameter(name: "for", reason: "a rule grant lasts until it is deselected; --for and --until apply to assets and albums")
        }
        try validate(from: from, to: to)
        return (from, to, try type.map(MediaType.parse))
    }
}
