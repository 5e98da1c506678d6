/// Names an app's view directory.
///
/// Random, stored with the app, and never derived from its ID: an app that
/// knows (or guesses) another app's ID still cannot find, `stat` or watch that
/// app's view through the traversable views root (SPEC §4). `photolibctl apps`
/// prints each view's path for the person who sets a sandbox up.
public enum ViewName {
    /// A fresh name: `view-` and 16 characters of Crockford base32 (80 random bits).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> FileName {
        FileName("view-" + AssetID.random(using: &generator).rawValue)!
    }

    /// Whether a name in the views root has the shape of a view's name (anything else there is not photolibd's).
    public static func isViewName(_ name: FileName) -> Bool {
        let prefix = Array("view-".utf8)
        return name.bytes.count == prefix.count + AssetID.length && name.bytes.starts(with: prefix)
            && AssetID(String(decoding: name.bytes.dropFirst(prefix.count), as: UTF8.self)) != nil
    }
}
