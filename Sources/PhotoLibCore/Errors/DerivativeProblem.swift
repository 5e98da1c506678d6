/// Why a file's location could not be found or removed; worded here, once.
///
/// A file with such a problem is withheld from every app whose location
/// policy is `none` (an error is never taken for "no location"), and the
/// words go to the log, `status` and the store.
public enum DerivativeProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The original or the copy could not be opened, read or written.
    case io(call: String, errno: Int32)
    /// The box structure of an MP4/MOV/HEIF file could not be walked.
    case isoMedia(IsoMediaProblem)
    /// exiv2 could not read or write the metadata.
    case metadata(String)
    /// exiv2 reads this format but cannot write the fields away.
    case notWritable
    /// The rewritten metadata does not fit where the original was.
    case rewrittenTooLarge
    /// The derivative still holds a location after it was stripped.
    case locationRemains(fields: Int)
    /// A serial number, caption or name remained in an app's copy after it was stripped.
    case metadataRemains(fields: Int)

    public var description: String {
        switch self {
        case .io(let call, let errno): "\(call) failed (errno \(errno))"
        case .isoMedia(let problem): "\(problem)"
        case .metadata(let text): "its metadata cannot be read or written: \(text)"
        case .notWritable: "it holds a location in a format whose metadata photolibd cannot rewrite"
        case .rewrittenTooLarge: "its metadata without location would not fit where the original was"
        case .locationRemains(let fields): "\(fields) location field(s) remained after stripping"
        case .metadataRemains(let fields): "\(fields) field(s) or name(s) the app may not have remained after stripping"
        }
    }
}
