#if canImport(Glibc)
import Glibc
#endif
import FileOutput

/// Writes to the process's standard output or error with plain `write(2)`: a stream whose
/// reader is gone (`complianced … | true`, a closed terminal) loses the text, and the program
/// goes on. Foundation's `FileHandle.write(_:)` traps on EPIPE instead, which killed the daemon
/// (SIGILL) in the middle of its start when nobody read its ready line.
public enum StandardStream {
    case output, error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    /// Writes all of `text` (``FileOutput/writeAll(_:to:)``); false when the stream refused it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        FileOutput.writeAll(Array(text.utf8), to: descriptor) == nil
    }
}
