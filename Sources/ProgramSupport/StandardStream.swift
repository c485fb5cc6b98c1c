#if canImport(Glibc)
import Glibc
#endif

/// Writes to the process's standard output or error with plain `write(2)`: a stream whose
/// reader is gone (`complianced … | true`, a closed terminal) loses the text, and the program
/// goes on. Foundation's `FileHandle.write(_:)` traps on EPIPE instead, which killed the daemon
/// (SIGILL) in the middle of its start when nobody read its ready line.
public enum StandardStream {
    case output, error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    /// Writes all of `text` (retrying short writes and EINTR); false when the stream refused it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
