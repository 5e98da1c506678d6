/// Whether a file-chooser call becomes a photo pick on the person's page or
/// goes, unchanged, to the desktop's own file dialog.
///
/// The pick answers only what is plainly a request for photos: the filter
/// the dialog would open on (the app's current filter, else its first) lets
/// through images or videos and nothing else. A folder, a document, an
/// "all files" first filter, or no filter at all go to the desktop's dialog,
/// except that an app the person registered with photolibd is given the
/// pick even without filters (it is a photo app by the person's word).
public enum FileChooserRoute: Sendable, Equatable {
    case pick(PickOptions)
    case forward(reason: String)

    public static func decide(_ call: FileChooserCall, registered: Bool, names: AssetNamePolicy = AssetNamePolicy()) -> FileChooserRoute {
        if call.directory { return .forward(reason: "it asks for a folder") }
        let limit = call.multiple ? 0 : 1
        guard let shown = call.current ?? call.filters.first else {
            return registered ? .pick(PickOptions(types: [.image, .video], limit: limit))
                : .forward(reason: "it names no file types, and the app is not registered with photolibd")
        }
        var types = Set<MediaType>()
        var accepts: [String] = []
        var readsUnknown = false
        for pattern in shown.patterns {
            guard let type = FileChooserRoute.mediaType(of: pattern, names: names) else {
                return .forward(reason: "its filter '\(shown.name)' lets through '\(pattern.text)', which is not a photo or video")
            }
            types.insert(type)
            // What the filter lets through is what the app reads: a photo of another type arrives as a JPEG where it can.
            // A pattern whose type photolibd cannot name leaves the app's reading unknown: it gets what it chose, as it is.
            if let mime = acceptedType(of: pattern) {
                if !accepts.contains(mime) { accepts.append(mime) }
            } else {
                readsUnknown = true
            }
        }
        if types.isEmpty { return .forward(reason: "its filter '\(shown.name)' is empty") }
        // An app asking for images takes a Live Photo as its still (PickPolicy), so `live` is not added.
        var options = PickOptions(types: types, limit: limit)
        options.accepts = readsUnknown ? [] : accepts
        return .pick(options)
    }

    /// The kind of media a pattern stands for, or nil when it lets through anything else.
    /// The MIME type (or `image/*`) a filter pattern stands for: itself, or a glob's extension's type.
    static func acceptedType(of pattern: FilePattern) -> String? {
        switch pattern.kind {
        case .mimeType:
            let mime = pattern.text.lowercased()
            return FileFormat.isPattern(mime) ? mime : nil
        case .glob:
            let glob = caseFolded(pattern.text)
            return glob.hasPrefix("*.") ? FileFormat.mimeType(ofName: "x" + glob.dropFirst()) : nil
        case .unknown:
            return nil
        }
    }

    public static func mediaType(of pattern: FilePattern, names: AssetNamePolicy = AssetNamePolicy()) -> MediaType? {
        switch pattern.kind {
        case .mimeType:
            let mime = pattern.text.lowercased()
            if mime.hasPrefix("image/") { return .image }
            if mime.hasPrefix("video/") { return .video }
            return nil
        case .glob:
            let glob = caseFolded(pattern.text)
            guard glob.hasPrefix("*."), glob.count > 2 else { return nil }
            let ext = glob.dropFirst(2)
            guard !ext.contains(where: { "*?[]/".contains($0) }) else { return nil }
            return FileName("x." + ext).flatMap(names.mediaType(of:))
        case .unknown:
            return nil
        }
    }

    /// A glob as GTK writes case-insensitive suffixes ("*.[jJ][pP][gG]"), in lower case ("*.jpg").
    static func caseFolded(_ glob: String) -> String {
        var out = ""
        var characters = Array(glob)[...]
        while let first = characters.first {
            if first == "[", characters.count >= 4, characters[characters.startIndex + 3] == "]",
               characters[characters.startIndex + 1].lowercased() == characters[characters.startIndex + 2].lowercased() {
                out += characters[characters.startIndex + 1].lowercased()
                characters = characters.dropFirst(4)
            } else {
                out += first.lowercased()
                characters = characters.dropFirst()
            }
        }
        return out
    }
}
