/// An app's own names for the library's assets (SPEC §9): two apps that see
/// the same photo see different IDs, so they cannot match photos by ID, and
/// neither ID is the library's.
///
/// Each ID is SipHash-2-4 of the library ID under a 16-byte key of the app's
/// (random, in the database), spelled as an asset ID: stable for as long as
/// the app is registered, unlinkable without the key. Admin tools keep the
/// library ID and can show an app's (`photolibctl assets --app`).
public struct AppAssetIDs: Sendable, Equatable, Hashable {
    public let key: [UInt8]

    public static let keyLength = 16

    public init?(key: [UInt8]) {
        guard key.count == Self.keyLength else { return nil }
        self.key = key
    }

    /// A fresh random key.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> AppAssetIDs {
        let a: UInt64 = generator.next(), b: UInt64 = generator.next()
        return AppAssetIDs(key: (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * UInt64($0))) })!
    }

    /// The app's ID for an asset.
    public func id(for asset: AssetID) -> AssetID {
        let digest = SipHash.hash128(key: key, message: Array(asset.rawValue.utf8))
        func word(_ range: Range<Int>) -> UInt64 {
            digest[range].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        return AssetID.fromBits(high: word(0..<8), low: word(8..<16))
    }
}
