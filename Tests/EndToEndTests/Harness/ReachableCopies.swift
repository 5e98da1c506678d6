import Foundation
import Glibc
import TestSupport

/// Everything a test runs as another uid (the built binaries, the examples, the
/// scripts), put once per test run where every uid can reach it.
///
/// A checkout may sit where only root can enter: Debian's `/root` is 0700, and so
/// is a `mktemp -d` directory. A program there, run as the library's owner or an
/// app's uid, fails with EACCES before its first line, which a test used to see
/// only as a 60 s timeout. Every test that runs something as another uid takes
/// its path from here, never from the checkout.
///
/// The copies live in one directory below /tmp (mode 0755, files 0755/0644),
/// hard-linked from the checkout where they share a filesystem and copied where
/// they do not, and are removed when the test process exits.
enum ReachableCopies {
    /// The built executable `name` (`photolibd`, `photolibctl`, `photolibd-page`, `photolibd-thumbnailer`), reachable by any uid,
    /// beside the libraries they load by their run path (`libphotolibd-metadata.so`, `libphotolibd-bus.so`).
    static func binary(_ name: String) throws -> String { try made() + "/bin/" + name }

    /// `examples/NAME`, reachable by any uid; its siblings (photolib_client.py) are beside it.
    static func example(_ name: String) throws -> String { try made() + "/examples/" + name }

    /// A helper of the page's tests in `Tests/Browser` (`page_driver.py`, `http_probe.py`).
    static func browserTool(_ name: String) throws -> String { try made() + "/browser/" + name }

    /// The directory holding every example, for a sandbox to bind whole.
    static func examples() throws -> String { try made() + "/examples" }

    /// Made on first use; `error` says why it could not be, and what to do.
    private static let directory: (path: String, error: String?) = {
        var template = Array("/tmp/photolibd-reachable-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            return ("/nonexistent", "Cannot make a directory in /tmp for the test programs (errno \(errno)); make /tmp writable.")
        }
        let root = String(cString: made)
        atexit { removeCopies() }
        RunRecord.madeDirectory(root)  // a test process killed before its exit handlers leaves it to the runner
        chmod(root, 0o755)
        var problems: [String] = []
        for (folder, source, names, mode) in [
            ("bin", RunningDaemon.buildDirectory, ["photolibd", "photolibctl", "photolibd-page", "photolibd-thumbnailer", "photolibd-portal", "photolibd-inotify", "photolibd-viewfs",
                                                  "libphotolibd-metadata.so", "libphotolibd-bus.so"], mode_t(0o755)),
            ("examples", RunningDaemon.packageRoot + "/examples", pythonFiles(in: RunningDaemon.packageRoot + "/examples"), mode_t(0o644)),
            ("browser", RunningDaemon.packageRoot + "/Tests/Browser", pythonFiles(in: RunningDaemon.packageRoot + "/Tests/Browser"), mode_t(0o755)),
        ] {
            mkdir(root + "/" + folder, 0o755)
            chmod(root + "/" + folder, 0o755)
            for name in names {
                if let problem = place(source + "/" + name, at: root + "/" + folder + "/" + name, mode: mode) { problems.append(problem) }
            }
        }
        // The page server finds its files beside itself, as the build leaves them.
        let site = "/photolibd_PhotoLibPage.resources"
        let copied = try? runBlocking("/bin/cp", ["-R", RunningDaemon.buildDirectory + site, root + "/bin" + site])
        if copied?.status != 0 { problems.append("Cannot copy the page's files to \(root)/bin: \(copied?.stderr ?? "cp did not run").") }
        _ = try? runBlocking("/bin/chmod", ["-R", "a+rX", root + "/bin" + site])
        return (root, problems.isEmpty ? nil : problems.joined(separator: " "))
    }()

    /// The path `removeCopies` deletes; a C function pointer cannot capture it.
    private static let madeRoot: String = directory.path

    private static func removeCopies() {
        let root = madeRoot
        guard root.hasPrefix("/tmp/photolibd-reachable-") else { return }
        _ = try? runBlocking("/bin/rm", ["-rf", root])
    }

    /// The directory, or the reason (fails the test) when the copies could not be made.
    private static func made() throws -> String {
        if let error = directory.error { throw TestFailure(error) }
        return directory.path
    }

    private static func pythonFiles(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".py") }.sorted()
    }

    /// Links `source` at `destination` (or copies it across filesystems) and sets its mode; nil, or what went wrong.
    private static func place(_ source: String, at destination: String, mode: mode_t) -> String? {
        // A hard link shares the source's mode: copy instead when the mode must differ from what the build left.
        var st = stat()
        guard stat(source, &st) == 0 else {
            return "\(source) is missing (errno \(errno)): run `swift build --build-tests` (make test does) before the tests."
        }
        if st.st_mode & 0o777 == mode, link(source, destination) == 0 { return nil }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            return "Cannot copy \(source) to \(destination) for other uids to run: \(error)."
        }
        chmod(destination, mode)
        return nil
    }
}
