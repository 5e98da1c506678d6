import Glibc

/// Reading and writing at an offset (`pread`, `pwrite`), whole or not at all.
public enum PositionalIO {
    /// Exactly `count` bytes at `offset`; fewer only at the end of the file.
    public static func read(_ fd: FileDescriptor, at offset: UInt64, count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try systemCall("pread") {
                bytes.withUnsafeMutableBytes { pread(fd.rawValue, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            }
            if n == 0 { break }
            done += n
        }
        return done == count ? bytes : Array(bytes[..<done])
    }

    /// All of `bytes` at `offset`.
    public static func write(_ fd: FileDescriptor, _ bytes: [UInt8], at offset: UInt64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            done += try systemCall("pwrite") {
                bytes.withUnsafeBytes { pwrite(fd.rawValue, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            }
        }
    }
}
