import PhotoLibCore
import Testing

@Suite("Which helper programs photolibd runs")
struct HelperTrustTests {
    static let directory = HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 0, mode: 0o755)
    static func file(owner: UInt32 = 0, mode: UInt32 = 0o755) -> HelperTrust.Facts {
        HelperTrust.Facts(isRegularFile: true, isDirectory: false, owner: owner, mode: mode)
    }

    @Test("root's or its own user's, writable by no one else, in such a directory: run")
    func trusted() {
        #expect(HelperTrust.refusal(file: Self.file(), directory: Self.directory, runningAs: 1000) == nil)
        #expect(HelperTrust.refusal(file: Self.file(owner: 1000, mode: 0o700), directory: Self.directory, runningAs: 1000) == nil)
        let own = HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 1000, mode: 0o700)
        #expect(HelperTrust.refusal(file: Self.file(owner: 1000), directory: own, runningAs: 1000) == nil)
    }

    @Test("in a user namespace (PrivateUsers=yes), root's files show the overflow uid, trusted as root only when the caller says so")
    func userNamespace() {
        let shownAsNobody = Self.file(owner: 65534)
        let directory = HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 65534, mode: 0o755)
        #expect(HelperTrust.refusal(file: shownAsNobody, directory: directory, runningAs: 1000, rootShownAs: 65534) == nil)
        #expect(HelperTrust.refusal(file: shownAsNobody, directory: directory, runningAs: 1000)?.contains("owned by uid 65534") == true)
        #expect(HelperTrust.refusal(file: Self.file(owner: 65534, mode: 0o777), directory: directory, runningAs: 1000, rootShownAs: 65534) != nil,
                "the modes still count")
    }

    @Test("another user's, writable by others, setuid, not a file, or in a directory others may write: refused, saying why",
          arguments: [
            (file(owner: 1001), directory, "owned by uid 1001"),
            (file(mode: 0o775), directory, "writable by its group or by everyone (mode 775)"),
            (file(mode: 0o757), directory, "writable by its group or by everyone"),
            (file(mode: 0o4755), directory, "setuid or setgid"),
            (HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 0, mode: 0o755), directory, "not a regular file"),
            (file(), HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 0, mode: 0o1777), "in a directory others may write to"),
            (file(), HelperTrust.Facts(isRegularFile: false, isDirectory: true, owner: 1001, mode: 0o755), "in a directory owned by uid 1001"),
          ])
    func refused(_ file: HelperTrust.Facts, _ directory: HelperTrust.Facts, _ reason: String) {
        let refusal = HelperTrust.refusal(file: file, directory: directory, runningAs: 1000)
        #expect(refusal?.contains(reason) == true, "\(String(describing: refusal))")
    }
}
