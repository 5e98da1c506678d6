import Glibc

/// Text for a person on standard error, written whole (a short write continues).
public enum StandardError {
    public static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            // Failing (stderr closed, or a pipe whose reader left) leaves nowhere to say so: the rest is dropped.
            guard let written = try? systemCall("write stderr", {
                bytes.withUnsafeBytes { raw in Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset) }
            }), written > 0 else { return }
            offset += written
        }
    }
}
