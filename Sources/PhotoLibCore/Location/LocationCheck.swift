/// What photolibd found when it looked for a location in one member file, for
/// the content the file had then; and what that means for a view.
///
/// A check stands while the file keeps the inode, size and modification time
/// it was made for: an edit of the original makes it stale, and the file is
/// looked at (and its derivative made) again. One that found the file
/// unreadable stands only while the file keeps its mode too: a chmod settles it.
public struct LocationCheck: Sendable, Equatable {
    /// What the look found.
    public enum Outcome: Sendable, Equatable {
        /// No location field: the original is linked.
        case noLocation
        /// Location fields, removed in a derivative (this inode, this size).
        case derived(inode: UInt64, size: Int64)
        /// The file could not be read or rewritten; why, in words. Withheld
        /// from apps that must not see a location: an error is not an answer.
        case cannotTell(String)
    }

    public var inode: UInt64
    public var size: Int64
    public var modificationTime: Int64
    /// The permission bits the outcome depends on, when it does (`unreadable`); `nil` when any will do.
    public var permissions: UInt32?
    public var outcome: Outcome

    public init(inode: UInt64, size: Int64, modificationTime: Int64, permissions: UInt32? = nil, outcome: Outcome) {
        self.inode = inode
        self.size = size
        self.modificationTime = modificationTime
        self.permissions = permissions
        self.outcome = outcome
    }

    public init(of file: FileFacts, outcome: Outcome) {
        self.init(inode: file.inode, size: file.size, modificationTime: file.modificationTime, outcome: outcome)
    }

    /// The library's owner (whom photolibd runs as) may not read the file (`EACCES`), so
    /// nothing can be told of it: withheld from apps without location until its mode changes.
    public static func unreadable(_ file: FileFacts) -> LocationCheck {
        LocationCheck(inode: file.inode, size: file.size, modificationTime: file.modificationTime, permissions: file.permissions,
                      outcome: .cannotTell(unreadableReason))
    }

    public static let unreadableReason =
        "the library's owner may not read it, so whether it holds a location cannot be told; run chmod u+r on it"

    /// Whether the check was made for the file as it is now.
    public func isCurrent(for file: FileFacts) -> Bool {
        inode == file.inode && size == file.size && modificationTime == file.modificationTime
            && (permissions == nil || permissions == file.permissions)
    }
}

/// Which file a view entry links for an app, given its location policy.
public enum EntrySource: Sendable, Equatable {
    /// The original.
    case original
    /// The derivative without location, with this inode and size.
    case derivative(inode: UInt64, size: Int64)
    /// Nothing: whether the file holds a location is not known.
    case withheld(reason: String)
    /// The file must be looked at first (never checked, or changed since).
    case needsCheck

    /// The one rule: an app with `precise` gets originals; one with `none`
    /// gets the original only when it was found to hold no location. A file
    /// its owner may not read is withheld from `none` by its mode alone, before
    /// any check: so what an app was told of it before a chmod is judged right
    /// too, whatever check the chmod led to.
    public static func decide(policy: LocationPolicy, file: FileFacts, check: LocationCheck?) -> EntrySource {
        guard policy == .none else { return .original }
        guard file.isReadableByOwner else { return .withheld(reason: LocationCheck.unreadableReason) }
        guard let check, check.isCurrent(for: file) else { return .needsCheck }
        switch check.outcome {
        case .noLocation: return .original
        case .derived(let inode, let size): return .derivative(inode: inode, size: size)
        case .cannotTell(let reason): return .withheld(reason: reason)
        }
    }
}

/// How one member file appears in an app's view, for what the app is told
/// (`list`, change events): as the original, as a copy of another size, or
/// not at all. The same rule as the links (`EntrySource`), so what an app is
/// told matches its directory.
public enum MemberAppearance: Sendable, Equatable {
    case original
    case copy(size: Int64)
    case hidden

    /// From a check that may be missing: a member not looked at yet is
    /// described as the original (the daemon looks before it links or tells).
    public static func of(policy: LocationPolicy, file: FileFacts, check: LocationCheck?) -> MemberAppearance {
        switch EntrySource.decide(policy: policy, file: file, check: check) {
        case .original, .needsCheck: .original
        case .derivative(_, let size): .copy(size: size)
        case .withheld: .hidden
        }
    }
}
