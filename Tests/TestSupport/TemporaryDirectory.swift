import Foundation
import Glibc

/// Makes a fresh directory `/tmp/<prefix>-XXXXXX` (mkdtemp: the owner's, 0700, a name no other test
/// has) and returns its path; the test removes it.
public func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, userInfo: [NSLocalizedDescriptionKey: "mkdtemp /tmp/\(prefix)-XXXXXX"])
    }
    return String(cString: made)
}
