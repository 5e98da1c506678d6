import Foundation
import Glibc
import Testing
import TestSupport

/// scripts/check-licences, which `make test` and `make deb` run on what is built, fails where it
/// must: on programs and packages made to break the rules, not only on photolibd's own (which pass).
@Suite("The licence check fails where it must")
struct LicenceCheckTests {
    /// A directory of the test's own, removed after it.
    static func scratch() throws -> String {
        var template = Array("/tmp/photolibd-licences-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
        RunRecord.madeDirectory(String(cString: made))
        return String(cString: made)
    }

    @Test("a Swift program linking libinotifytools (GPL-2.0-only) fails, naming the program and the two that cannot be combined")
    func swiftProgramLinkingGPL2Only() async throws {
        let directory = try Self.scratch()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", directory]) }
        let source = directory + "/main.swift"
        try """
            @_silgen_name("inotifytools_initialize") func inotifytoolsInitialize() -> Int32
            print(inotifytoolsInitialize())
            """.write(toFile: source, atomically: false, encoding: .utf8)
        // Named as the helper is: the one program that may link libinotifytools, only with the C library.
        let built = try await run("/usr/bin/env", ["swiftc", source, "-o", directory + "/photolibd-inotify",
                                                          "-Xlinker", "--no-as-needed", "-linotifytools"], timeout: 600)
        try #require(built.status == 0, "swiftc: \(built.stderr)")
        // An empty link file list: the Swift targets in it are none, so what fails is the combination itself.
        try FileManager.default.createDirectory(atPath: directory + "/photolibd-inotify.product", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/photolibd-inotify.product/Objects.LinkFileList", contents: Data())
        let checked = try await run("/usr/bin/python3", [RunningDaemon.script("check-licences"), "--bin", directory, "--quiet"])
        #expect(checked.status == 1)
        let line = checked.stderr.split(separator: "\n").first { $0.contains("photolibd-inotify:") && $0.contains("cannot be combined") }
        #expect(line?.contains("libinotifytools") == true && line?.contains("the Swift runtime") == true, "\(checked.stderr)")
    }

    @Test("a package that loads a library with dlopen unlisted, links a static archive, or hides one in a linker flag fails, naming each")
    func whatNoExecutableShows() async throws {
        let package = try Self.scratch()
        defer { _ = try? runBlocking("/bin/rm", ["-rf", package]) }
        try FileManager.default.createDirectory(atPath: package + "/Sources/CVideo", withIntermediateDirectories: true)
        try """
            #include <dlfcn.h>
            void *load(void) { return dlopen("libsomething-gpl.so.3", RTLD_NOW); }
            """.write(toFile: package + "/Sources/CVideo/video.c", atomically: false, encoding: .utf8)
        try """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "fixture", targets: [
                .target(name: "CVideo", linkerSettings: [.linkedLibrary("gplstatic"), .unsafeFlags(["-Xlinker", "/opt/libhidden.a"])]),
            ])
            """.write(toFile: package + "/Package.swift", atomically: false, encoding: .utf8)
        // No executables to read (make test checks photolibd's own, which pass): only the package is judged here.
        let checked = try await run("/usr/bin/python3", [RunningDaemon.script("check-licences"), "--bin", package + "/Sources",
                                                                "--package", package, "--quiet"])
        #expect(checked.status == 1)
        #expect(checked.stderr.contains("Sources/CVideo/video.c loads libsomething-gpl.so.3 with dlopen, which DLOPENED does not list"), "\(checked.stderr)")
        #expect(checked.stderr.contains("Package.swift links 'gplstatic', which no executable loads as a shared library"), "\(checked.stderr)")
        #expect(checked.stderr.contains("Package.swift passes the linker flag '/opt/libhidden.a'"), "\(checked.stderr)")
    }
}
