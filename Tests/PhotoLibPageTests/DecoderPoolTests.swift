import Foundation
import Glibc
@testable import PhotoLibPage
import Testing
import TestSupport

/// The decoder pool with fake decoders (small shell scripts in place of `photolibd-thumbnailer`):
/// what a crash, a hang, a decoder that had exited and a decoder that cannot start each cost.
@Suite("The page's decoder processes")
final class DecoderPoolTests: Sendable {
    /// This test's fake decoders; removed when the test ends (a suite class's deinit), not left in /tmp.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-decoders-\(UInt32.random(in: 0..<UInt32.max))")

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A fake decoder: `body` runs once per request line it reads.
    func decoder(_ body: String) async throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = directory.appendingPathComponent("decoder.sh").path
        let path = directory.appendingPathComponent("decoder").path
        try "#!/bin/sh\nwhile read -r request; do\n\(body)\ndone\n".write(toFile: source, atomically: false, encoding: .utf8)
        // Written by another process (install), not this one: a test spawning a process meanwhile would
        // inherit this process's open file and make executing it fail with ETXTBSY (seen once under load).
        try await ChildProcess.runSuccessfully("/usr/bin/install", ["-m", "755", source, path])
        return path
    }

    static func pool(_ executable: String, maxSeconds: Double = 20) -> DecoderPool {
        DecoderPool(settings: .init(executable: executable, size: 2, maxSeconds: maxSeconds))
    }

    @Test("a decoder's PNG and a decoder's refusal come back as they were sent, over and over on the same decoders")
    func answers() async throws {
        let pool = await Self.pool(try decoder(#"""
            case "$request" in
              *'"video":true'*) printf '{"error":"no frame could be read from the video","duration":12.4}\n' ;;
              *) printf '{"bytes":4}\nPNG!' ;;
            esac
            """#))
        for _ in 0..<5 {
            #expect(await pool.make(path: Array("/a.jpg".utf8), uri: "file:///a.jpg", mtime: 1, isVideo: false) == .png(Array("PNG!".utf8)))
        }
        #expect(await pool.make(path: Array("/v.mp4".utf8), uri: "file:///v.mp4", mtime: 1, isVideo: true)
                == .failed("no frame could be read from the video", duration: 12.4))
    }

    @Test("a decoder that crashes on a file costs that file a placeholder; the next file gets a new decoder")
    func crash() async throws {
        // Crashes on the file named crash.jpg, as a decoder would on a hostile file.
        let pool = await Self.pool(try decoder(#"""
            case "$request" in
              *crash*) kill -SEGV $$ ;;
              *) printf '{"bytes":2}\nok' ;;
            esac
            """#))
        let crashed = await pool.make(path: Array("/crash.jpg".utf8), uri: "file:///crash.jpg", mtime: 1, isVideo: false)
        guard case .failed(let reason, _) = crashed else { Issue.record("\(crashed)"); return }
        #expect(reason.contains("killed by signal 11"), "\(reason)")
        #expect(await pool.make(path: Array("/fine.jpg".utf8), uri: "file:///fine.jpg", mtime: 1, isVideo: false) == .png(Array("ok".utf8)))
    }

    @Test("a decoder that takes longer than allowed is killed, and the file gets a placeholder")
    func hang() async throws {
        // The decoder itself sleeps (exec), as a decoder stuck in a file would; it would answer after a minute, if ever.
        let pool = await Self.pool(try decoder("exec sleep 60"), maxSeconds: 0.3)
        let made = await pool.make(path: Array("/slow.heic".utf8), uri: "file:///slow.heic", mtime: 1, isVideo: false)
        // Only the pool's own deadline gives this answer (no reply at all would be "the decoder exited").
        #expect(made == .failed("decoding took longer than 0.3 s; its decoder was stopped"))
    }

    @Test("a decoder that exited while idle is replaced without blaming the next file")
    func exitedWhileIdle() async throws {
        // Answers one request, then leaves as an idle decoder does: it says so, and exits.
        let pool = await Self.pool(try decoder("printf '{\"bytes\":2}\\nok'; printf '{\"idle\":true}\\n'; exit 0"))
        for name in ["one", "two", "three"] {
            #expect(await pool.make(path: Array("/\(name).jpg".utf8), uri: "file:///\(name).jpg", mtime: 1, isVideo: false)
                    == .png(Array("ok".utf8)), "\(name)")
        }
    }

    @Test("a decoder that cannot start is not the file's fault")
    func cannotStart() async throws {
        let made = await Self.pool("/nonexistent/photolibd-page").make(path: Array("/a.jpg".utf8), uri: "file:///a.jpg", mtime: 1, isVideo: false)
        guard case .unavailable(let reason) = made else { Issue.record("\(made)"); return }
        #expect(reason.contains("/nonexistent/photolibd-page"), "\(reason)")
    }
}
