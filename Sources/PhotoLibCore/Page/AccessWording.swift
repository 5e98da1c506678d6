/// An app's access in the person's words, as iOS's Settings ▸ Privacy ▸ Photos
/// says it: *None*, *Add Photos Only*, *Selected Photos (N)*, *Full Access*.
///
/// The page lists apps with these words and sorts those with full access first
/// (iOS 17's reminder of who sees everything). Decided here from the two
/// authorization statuses and the counts, so the page and its tests agree.
public struct AccessWording: Sendable, Equatable {
    /// What the app may do with the library, from least to most.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case none, addOnly, selected, full

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public var level: Level
    /// The words the page shows: "Selected Photos (3)", "Full Access (all 1,204 photos)".
    public var words: String

    /// - Parameters:
    ///   - readWrite: the app's read-write status.
    ///   - addOnly: its add-only status.
    ///   - selectedAssets: how many assets its selection holds (albums and rules resolved).
    ///   - libraryAssets: how many assets the library holds.
    public init(readWrite: AuthorizationStatus, addOnly: AuthorizationStatus, selectedAssets: Int, libraryAssets: Int) {
        switch readWrite {
        case .authorized:
            level = .full
            words = "Full Access (all \(Self.grouped(libraryAssets)) \(libraryAssets == 1 ? "photo" : "photos"))"
        case .limited:
            level = .selected
            words = "Selected Photos (\(Self.grouped(selectedAssets)))"
        default:
            if addOnly == .authorized || addOnly == .limited {
                level = .addOnly
                words = "Add Photos Only"
            } else {
                level = .none
                // An app the person has not answered yet sees nothing, but "None" would read as their answer.
                words = readWrite == .notDetermined ? "Not decided yet: sees nothing" : "None"
            }
        }
    }

    /// 1204 → "1,204": the page is in English, as every message of photolibd is.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var out: [Character] = []
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + String(out)
    }
}
