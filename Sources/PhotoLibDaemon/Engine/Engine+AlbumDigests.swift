import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore

// A start whose scan compares only the directories that changed: the rows' digests a clean stop
// records (`AlbumDigests`).
extension Engine {
    /// What the digests were made under besides the rows: another version may digest otherwise,
    /// and another library's album numbers are not these.
    static func digestFingerprint(library: String) -> String {
        "photolibd \(Daemon.version); library \(library)"
    }

    /// At a clean stop, the store's last write: the digest of every album's rows. Whatever the rows
    /// are (a scan stopped halfway leaves the old ones), the digests are theirs, and the next start
    /// trusts a directory only where the disk still agrees with them.
    func recordAlbumDigestsAtStop() {
        let started = ContinuousClock.now
        do {
            let (key, fingerprint) = (AlbumDigest.Key.random(), Self.digestFingerprint(library: configuration.library))
            let count = try store.write { try $0.recordAlbumDigests(key: key, fingerprint: fingerprint) }
            logger.info("Recorded the digests of \(count) albums' rows in \(ContinuousClock.now - started): the next start compares only the directories that change meanwhile.")
        } catch {
            logger.warning("Cannot record the albums' digests at this stop: \(error). The next start compares every directory with the index.")
        }
    }
}
