/// What the person lets leave with the photos of one pick (iOS 17's Options in the picker):
/// where they were taken, and their captions and the people named in them. Camera and lens
/// serial numbers never leave for an app (`MetadataRemoval`).
public struct SharingChoice: Sendable, Equatable, Codable {
    /// Location fields stay. Only where the app may have location at all (`allowed(by:)`).
    public var location: Bool
    /// Captions, titles, face regions and people's names stay.
    public var captions: Bool

    public init(location: Bool, captions: Bool) {
        self.location = location
        self.captions = captions
    }

    /// What a pick shares when the person says nothing: what the app's settings say.
    public static func defaults(for app: AppRecord) -> SharingChoice {
        SharingChoice(location: app.location == .precise, captions: app.captions)
    }

    /// The person's answer, with what they did not say taken from the app's settings. Location is
    /// never more than the app may have: asking for it for an app without location is an error the
    /// person can act on, not a silent no.
    public static func answer(location: Bool?, captions: Bool?, app: AppRecord) throws(PhotoLibError) -> SharingChoice {
        let defaults = defaults(for: app)
        if location == true && app.location != .precise {
            throw .invalidParameter(name: "location", reason: "\(app.id) may not have location (its setting is \(app.location.rawValue)); "
                                        + "change that first with 'photolibctl app set \(app.id) --location precise'")
        }
        return SharingChoice(location: location ?? defaults.location, captions: captions ?? defaults.captions)
    }

    /// The words for the per-app setting (`photolibctl app set --captions`).
    public static func captionsSetting(_ text: String) -> Bool? {
        switch text {
        case "shared": true
        case "removed": false
        default: nil
        }
    }

    public static func captionsWord(_ shared: Bool) -> String { shared ? "shared" : "removed" }

    /// The location policy a pick's files are made by.
    public var locationPolicy: LocationPolicy { location ? .precise : .none }

    /// What the metadata loses on the way out.
    public var removal: MetadataRemoval { MetadataRemoval(captions: !captions) }
}
