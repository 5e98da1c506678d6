import Foundation
import Glibc

/// What a test made outside itself, written down for the run's end: `scripts/swift-test` names a
/// file in `PHOTOLIBD_TEST_MOUNTS` and, once the tests are over (or were stopped), lazily unmounts
/// every mount point listed there that is still mounted, detaches the loop devices of the images
/// listed and removes them, and removes the test users and directories listed, whichever test failed to. Only what
/// this run made: another run on the machine keeps its own.
public enum RunRecord {
    /// Notes that `mountPoint` was mounted (from `image`, for a loop mount).
    public static func mounted(_ mountPoint: String, image: String? = nil) {
        append("mount \(mountPoint)\n" + (image.map { "image \($0)\n" } ?? ""))
    }

    /// Notes that the user `name` was made for a test (useradd).
    public static func madeUser(_ name: String) {
        append("user \(name)\n")
    }

    /// Notes a directory a test made below /tmp (a library, the reachable copies), removed whole.
    public static func madeDirectory(_ path: String) {
        append("directory \(path)\n")
    }

    private static func append(_ lines: String) {
        guard let file = ProcessInfo.processInfo.environment["PHOTOLIBD_TEST_MOUNTS"], !file.isEmpty else { return }
        // O_APPEND: whole lines from tests running at once never interleave (each is one write, well under PIPE_BUF).
        let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = lines.withCString { write(descriptor, $0, strlen($0)) }
    }
}
