/// Who a photo's metadata names as being in it, read from the fields that say so: face regions'
/// names (MWG, Microsoft), IPTC's person fields, and the people branch of a photo manager's keyword
/// tree ("People|Alice Martin", digiKam's "People/Alice Martin").
///
/// These names are what `MetadataRemoval` takes out of the flat keyword lists, where the same
/// managers copy them beside ordinary keywords.
public enum PeopleNames {
    /// The fields names are read from (all removed whole with captions).
    public static let sourcePrefixes: [String] = [
        "Xmp.mwg-rs.Regions",
        "Xmp.MP.RegionInfo",
        "Xmp.iptcExt.PersonInImage",
        "Xmp.iptcExt.PersonInImageWDetails",
        "Xmp.digiKam.TagsList",
        "Xmp.lr.hierarchicalSubject",
        "Xmp.mediapro.CatalogSets",
        "Xmp.MicrosoftPhoto.LastKeywordXMP",
    ]

    /// Roots of keyword trees under which each leaf is a person.
    static let peopleRoots: Set<String> = ["people", "persons", "person", "faces", "names"]

    /// The names found in `values` (key, value pairs of the source fields), each once, in order.
    public static func names(in values: [(key: String, value: String)]) -> [String] {
        var found: [String] = []
        func add(_ name: String) {
            let name = name.trimmingWhitespace
            if !name.isEmpty && !found.contains(name) { found.append(name) }
        }
        for (key, value) in values {
            if key.hasPrefix("Xmp.mwg-rs.Regions") {
                // Only a face region's name is a person; a pet's or a focus area's is not.
                if key.hasSuffix("/mwg-rs:Name"), !isNonFaceRegion(key, in: values) { add(value) }
            } else if key.hasPrefix("Xmp.MP.RegionInfo") {
                if key.hasSuffix("/MPReg:PersonDisplayName") { add(value) }
            } else if key == "Xmp.iptcExt.PersonInImage" {
                add(value)
            } else if key.hasPrefix("Xmp.iptcExt.PersonInImageWDetails") {
                if key.hasSuffix("/iptcExt:PersonName") || key.contains("/iptcExt:PersonName[") { add(value) }
            } else if sourcePrefixes.contains(where: key.hasPrefix) {
                if let person = leafUnderPeopleRoot(value) { add(person) }
            }
        }
        return found
    }

    /// "People|Family|Alice Martin" or "People/Alice Martin" → "Alice Martin"; nil outside a people branch.
    static func leafUnderPeopleRoot(_ path: String) -> String? {
        let separator: Character = path.contains("|") ? "|" : "/"
        let parts = path.split(separator: separator).map { String($0).trimmingWhitespace }
        guard parts.count >= 2, let root = parts.first, peopleRoots.contains(root.lowercased()) else { return nil }
        return parts.last
    }

    /// An MWG region whose type is stated and is not `Face` (its name is a dog's, or a focus point's).
    static func isNonFaceRegion(_ nameKey: String, in values: [(key: String, value: String)]) -> Bool {
        let region = nameKey.dropLast("/mwg-rs:Name".count)
        guard let type = values.first(where: { $0.key == region + "/mwg-rs:Type" })?.value else { return false }
        return type != "Face"
    }
}

extension String {
    /// Without the spaces and line ends around it.
    var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
