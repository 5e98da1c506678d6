/// The rules of a one-time pick (PHPickerViewController), pure and tested on
/// fakes: which of the chosen assets may be handed over, which of their files
/// go, and whether the app may hold the original or gets a private copy.
public enum PickPolicy {
    /// One chosen asset and the files the app receives for it, in order.
    public struct Delivery: Sendable, Equatable {
        public var asset: LocatedAsset
        /// The photo first; a Live Photo's video after it when the app asked for `live`.
        public var members: [LocatedMember]
        /// For each member, in the same order: as it is, or as a JPEG for an app that reads no other type.
        public var formats: [FormatDecision]

        public init(asset: LocatedAsset, members: [LocatedMember], formats: [FormatDecision]? = nil) {
            self.asset = asset
            self.members = members
            self.formats = formats ?? members.map { _ in .original }
        }
    }

    /// What the person chose, checked against what the app asked for; the
    /// deliveries keep the person's order. Nothing is delivered unless all of
    /// it can be: a pick is one answer, not a partial one.
    public static func deliveries(chosen: [LocatedAsset], options: PickOptions) throws(PhotoLibError) -> [Delivery] {
        if chosen.isEmpty { throw .pick(.nothingChosen) }
        if chosen.count > options.effectiveLimit { throw .pick(.overLimit(chosen: chosen.count, limit: options.effectiveLimit)) }
        var seen = Set<AssetID>()
        var deliveries: [Delivery] = []
        for asset in chosen {
            guard seen.insert(asset.id).inserted else { throw .pick(.chosenTwice(asset: asset.id.rawValue)) }
            let members = try files(of: asset, options: options)
            var formats: [FormatDecision] = []
            for member in members {
                if let refusal = member.refusal, refusal.forbidsSharing {
                    throw .pick(.refused(asset: asset.id.rawValue, path: member.path.escaped, refusal: refusal))
                }
                let format = FormatDecision.decide(name: member.path.lastComponent?.escaped ?? "", accepts: options.accepts)
                if case .unreadable(let mime) = format {
                    throw .pick(.formatNotRead(asset: asset.id.rawValue, path: member.path.escaped, type: mime, accepts: options.accepts))
                }
                formats.append(format)
            }
            deliveries.append(Delivery(asset: asset, members: members, formats: formats))
        }
        return deliveries
    }

    /// The files of one asset a pick hands over: a Live Photo is its two files
    /// when the app asked for `live`, its photo alone when it asked only for `image`.
    static func files(of asset: LocatedAsset, options: PickOptions) throws(PhotoLibError) -> [LocatedMember] {
        let refuse = PhotoLibError.pick(.typeNotAsked(asset: asset.id.rawValue, type: asset.mediaType, asked: options.typeNames))
        switch asset.mediaType {
        case .image, .video:
            guard options.types.contains(asset.mediaType), let primary = asset.primary else { throw refuse }
            return [primary]
        case .live:
            if options.types.contains(.live) { return asset.members }
            guard options.types.contains(.image), let still = asset.members.first(where: { $0.mediaType == .image }) else { throw refuse }
            return [still]
        }
    }

    /// Whether the app may receive a descriptor of the original itself, or
    /// must get a private copy.
    ///
    /// A read-only descriptor does not stop its holder from opening the file
    /// again through `/proc/self/fd/N`, and that open is judged by the file's
    /// permissions alone. A shareable original is writable by its owner only
    /// (`LinkRefusal`), so an app with a uid of its own can never write it;
    /// an app running as the owner (a sandbox on the owner's uid) could, so
    /// it gets a copy.
    public static func sharesOriginal(peerUID: UInt32, ownerUID: UInt32) -> Bool {
        peerUID != ownerUID && peerUID != 0
    }
}

extension LinkRefusal {
    /// True for refusals that are about the file itself (who controls it), so
    /// it is handed to no app by any means; false for those that only stop a
    /// hardlink or a clone (`linkNotPermitted`, `tooManyLinks`, `unreadableByOwner`),
    /// which a pick does not make (it reads the file as it is then).
    public var forbidsSharing: Bool {
        switch self {
        case .ownedByAnotherUser, .writableByOthers, .setID: true
        case .linkNotPermitted, .tooManyLinks, .unreadableByOwner: false
        }
    }
}
