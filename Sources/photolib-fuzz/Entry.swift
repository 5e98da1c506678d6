// Built two ways. With -D FUZZING and -sanitize=fuzzer (scripts/fuzz), libFuzzer
// supplies main and calls the entry point below. In a normal build it is a
// small tool that replays inputs (a crash libFuzzer saved, or a corpus) through
// the same function, so a finding can be reproduced and debugged without the
// sanitizer toolchain.
#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzOneInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver, which its own `main` would call.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's entry point as `<module>_main` (and points
/// `main` at it), so libFuzzer's `main` is never used: start its driver here.
@_cdecl("photolib_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzerTestOneInput)
}
#else
import Foundation

@main
enum Replay {
    static func main() {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map { path + "/" + $0 } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                fuzzOneInput(Array(data))
                count += 1
            }
        }
        print("Replayed \(count) inputs without a crash.")
    }
}
#endif
