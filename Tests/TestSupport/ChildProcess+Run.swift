import Foundation
import Glibc

extension ChildProcess {
    /// Runs a tool to its end, its output (standard output and error) to a file; at most `timeout`
    /// seconds, after which it and its process group are killed and this throws, naming the tool
    /// and what it printed.
    ///
    /// The test's task waits for the tool's end on a thread of its own, holding no thread of Swift's
    /// cooperative pool: one per core, shared by every test of the process, where a tool taking seconds
    /// under load (exiftool, a media script) stalled every other test.
    public static func runToEnd(_ executable: String, _ arguments: [String], timeout: Double = 120) async throws -> (ending: Ending, printed: String) {
        var template = Array("/tmp/photolibd-tool-output-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            let made = mkstemp(buffer.baseAddress!)
            if made >= 0 { unlink(buffer.baseAddress!) }
            return made
        }
        guard descriptor >= 0 else { throw ChildProcessError("mkstemp for \(executable)'s output: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let child = try ChildProcess(executable, arguments, streams: .descriptors(output: descriptor, error: descriptor), ownProcessGroup: true)
        let ending = await child.exited(timeout: timeout)
        let printed = Self.contents(descriptor)
        guard let ending else {
            child.signalGroup(SIGKILL)
            child.signal(SIGKILL)
            throw ChildProcessError("\(child.command) did not end within \(Int(timeout)) s and was killed; it printed: \(printed.suffix(2000))")
        }
        return (ending, printed)
    }

    /// Runs a tool as `runToEnd` does and throws unless it exits with status 0.
    @discardableResult
    public static func runSuccessfully(_ executable: String, _ arguments: [String], timeout: Double = 120) async throws -> String {
        let (ending, printed) = try await runToEnd(executable, arguments, timeout: timeout)
        guard ending == .exited(0) else {
            throw ChildProcessError("\(([executable] + arguments).joined(separator: " ")) \(ending); it printed: \(printed.suffix(2000))")
        }
        return printed
    }

    /// Everything written to `descriptor` (a file a child wrote its output to), read from its start.
    public static func contents(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            offset += off_t(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
