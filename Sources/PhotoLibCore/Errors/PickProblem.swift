/// Why a pick cannot be answered (or asked) as it stands; worded here, once.
///
/// The person reads these from `photolibctl answer`; the request stays pending
/// so they can answer again. An app reads `pending` when it asks twice.
public enum PickProblem: Sendable, Equatable {
    case nothingChosen
    case overLimit(chosen: Int, limit: Int)
    case chosenTwice(asset: String)
    case typeNotAsked(asset: String, type: MediaType, asked: [String])
    case refused(asset: String, path: String, refusal: LinkRefusal)
    /// The app already has a pick waiting for the person.
    case pending(app: AppID, request: Int64)
    /// The original could not be opened, or is no longer the indexed file.
    case cannotOpen(asset: String, path: String, errno: Int32?)
    /// The private copy for an app on the owner's uid could not be made.
    case cannotCopy(asset: String, path: String, errno: Int32)
    /// The app's connection closed before the files could be handed over.
    case appGone(app: AppID)
    /// The app may not see locations, and whether the file holds one cannot be told.
    case locationUnknown(asset: String, path: String, reason: String)
    /// A serial number, caption or person's name the app may not have cannot be taken out of the copy.
    case metadataStays(asset: String, path: String, reason: String)
    /// The app reads none of the types the photo is in, and no JPEG can be made for it.
    case formatNotRead(asset: String, path: String, type: String?, accepts: [String])
    /// The JPEG for an app that cannot read the photo's type could not be made.
    case cannotConvert(asset: String, path: String, reason: String)

    public var code: String {
        switch self {
        case .nothingChosen: "pickNothingChosen"
        case .overLimit: "pickOverLimit"
        case .chosenTwice: "pickChosenTwice"
        case .typeNotAsked: "pickTypeNotAsked"
        case .refused: "pickRefused"
        case .pending: "pickPending"
        case .cannotOpen: "pickCannotOpen"
        case .cannotCopy: "pickCannotCopy"
        case .appGone: "pickAppGone"
        case .locationUnknown: "pickLocationUnknown"
        case .metadataStays: "pickMetadataStays"
        case .formatNotRead: "pickFormatNotRead"
        case .cannotConvert: "pickCannotConvert"
        }
    }

    public var message: String {
        switch self {
        case .nothingChosen:
            "A pick is answered with the assets the person chose; name at least one (IDs or library paths), or answer 'cancel'."
        case .overLimit(let chosen, let limit):
            "\(chosen) assets were chosen and the app asked for at most \(limit); choose fewer."
        case .chosenTwice(let asset):
            "Asset \(asset) is named twice; name each chosen asset once, in the order the app should receive them."
        case .typeNotAsked(let asset, let type, let asked):
            "Asset \(asset) is a\(type == .image ? "n" : "") \(type.rawValue) and the app asked only for \(asked.joined(separator: ", ")); choose another."
        case .refused(let asset, let path, let refusal):
            "Asset \(asset) cannot be shared: \(path): \(refusal.explanation)"
        case .pending(let app, let request):
            "\(app) already has a pick waiting for the person (request \(request)); wait for its answer, or close that connection to withdraw it."
        case .cannotOpen(let asset, let path, let errno):
            "The file of asset \(asset) at \(path) cannot be opened"
                + (errno.map { " (\(PhotoLibError.describe($0)))" } ?? " as the file the index knows (it was replaced)")
                + "; nothing was handed over. Check it with 'photolibctl assets', or choose another."
        case .cannotCopy(let asset, let path, let errno):
            "The private copy of asset \(asset) (\(path)) for an app running as the library's owner could not be made (\(PhotoLibError.describe(errno))); nothing was handed over. Free some space, or choose another."
        case .appGone(let app):
            "\(app) closed the connection that asked; nothing was handed over."
        case .locationUnknown(let asset, let path, let reason):
            "The app may not see where photos were taken, and whether asset \(asset) (\(path)) holds a location cannot be told: \(reason). Nothing was handed over; choose another, or give the app 'photolibctl app set APP --location precise'."
        case .metadataStays(let asset, let path, let reason):
            "Asset \(asset) (\(path)) holds a camera serial number, a caption or a person's name that cannot be taken out of the app's copy: \(reason). Nothing was handed over; choose another"
                + ", or share its captions and people with this pick (a serial number never leaves)."
        case .formatNotRead(let asset, let path, let type, let accepts):
            "Asset \(asset) (\(path)) is \(type.map { "in \($0)" } ?? "of a type photolibd cannot name"), which the app does not read (it reads \(accepts.joined(separator: ", "))), and "
                + (accepts.contains { FileFormat.accepted("image/jpeg", by: [$0]) } ? "no JPEG can be made of it" : "the app takes no JPEG either")
                + "; nothing was handed over. Choose another."
        case .cannotConvert(let asset, let path, let reason):
            "The app does not read the type of asset \(asset) (\(path)), and the JPEG made for it failed: \(reason). Nothing was handed over; choose another."
        }
    }
}
