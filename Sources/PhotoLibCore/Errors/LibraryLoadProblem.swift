/// A shared library photolibd loads when it is first needed, rather than at every start, that cannot
/// be loaded; worded here, once.
///
/// Never taken for an answer: a photo whose place needs the gazetteer is `unreadable` (looked at
/// again at the next start), not `nowhere`.
public struct LibraryLoadProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The library's soname, as it was asked for.
    public let library: String
    /// The dynamic loader's words (dlerror), or what the library lacks.
    public let reason: String
    /// Debian's package that ships it.
    public let package: String

    public init(library: String, reason: String, package: String) {
        self.library = library
        self.reason = reason
        self.package = package
    }

    public var description: String {
        "\(library) cannot be loaded: \(reason) (install it: Debian's package is \(package))"
    }
}
