/// What may come in through an app's inbox, and what the app learns of it (SPEC §3).
///
/// Pure: the executor states what it found (the entry's type, links, size,
/// the app's statuses, its usage) and carries out the answer.
public enum InboxPolicy {
    /// What an accepted file does for the app that added it (PhotoKit's creation request).
    public enum Right: Sendable, Equatable {
        /// `limited`: the new asset joins its selection, so it sees what it added.
        case joinsSelection
        /// `authorized`: it sees the whole library, the new asset included.
        case seesLibrary
        /// Add-only: it never sees the asset again, and hears only that it was accepted.
        case addOnly
    }

    /// What an app may do with its inbox now; nil when it may not add at all.
    public static func right(readWrite: AuthorizationStatus, addOnly: AuthorizationStatus) -> Right? {
        switch readWrite {
        case .authorized: return .seesLibrary
        case .limited: return .joinsSelection
        default: return addOnly == .authorized ? .addOnly : nil
        }
    }

    /// A name in the inbox that is not ready to be judged: the app is still
    /// writing it (hidden or temporary names, by convention written first and
    /// renamed into place), or it is the `rejected` directory itself.
    public static func isPending(_ name: FileName, policy: AssetNamePolicy) -> Bool {
        if name.isHidden || name == rejectedDirectory { return true }
        let lower = AssetNamePolicy.lowercased(name.bytes)
        return AssetNamePolicy.temporarySuffixes.contains { suffix in
            let bytes = Array(suffix.utf8)
            return lower.count > bytes.count && Array(lower.suffix(bytes.count)) == bytes
        }
    }

    /// Where refused files are left, inside the inbox.
    public static let rejectedDirectory = FileName("rejected")!

    /// The checks made before a byte is copied.
    public static func admit(
        _ name: FileName, found: FileObservation, right: Right?, usage: InboxUsage, limits: InboxLimits, policy: AssetNamePolicy
    ) -> Result<MediaType, InboxRefusal> {
        guard right != nil else { return .failure(.notAllowed) }
        switch found.kind {
        case .symlink: return .failure(.symlink)
        case .directory, .other: return .failure(.notRegular)
        case .regular: break
        }
        if found.linkCount > 1 { return .failure(.hardLinked(count: found.linkCount)) }
        guard let mediaType = policy.mediaType(of: name), let ext = name.pathExtension.map(AssetNamePolicy.lowercased) else {
            return .failure(.notAnAssetName)
        }
        let extText = String(decoding: ext, as: UTF8.self)
        guard MediaSignature.checkableExtensions.contains(extText) else { return .failure(.uncheckableExtension(extText)) }
        let size = found.facts.size
        if size > limits.maxFileBytes { return .failure(.tooLarge(size: size, limit: limits.maxFileBytes)) }
        if usage.files >= limits.dailyFiles { return .failure(.dailyFiles(limit: limits.dailyFiles)) }
        if usage.bytes + size > limits.dailyBytes {
            return .failure(.dailyBytes(size: size, used: usage.bytes, limit: limits.dailyBytes))
        }
        return .success(mediaType)
    }

    /// What a finished copy says of the import: too large (the copy stops just past
    /// the limit), or changed while it was copied (its size is not the one it
    /// had when the import began, or the source's size moved on meanwhile);
    /// nil when the bytes may be checked for their format (`verify`).
    public static func judgeCopy(bytes: Int64, limit: Int64, expectedSize: Int64, sourceSizeNow: Int64) -> InboxRefusal? {
        if bytes > limit { return .tooLarge(size: bytes, limit: limit) }
        if bytes != expectedSize || sourceSizeNow != bytes { return .changedWhileCopied }
        return nil
    }

    /// The check made on the copy, which the app can no longer touch: its
    /// first bytes must be a format the extension names.
    public static func verify(_ name: FileName, header: [UInt8]) -> InboxRefusal? {
        let ext = name.pathExtension.map { String(decoding: AssetNamePolicy.lowercased($0), as: UTF8.self) } ?? ""
        let found = MediaSignature.detect(header)
        if let found, found.extensions.contains(ext) { return nil }
        return .contentMismatch(extension: ext, found: found)
    }
}
