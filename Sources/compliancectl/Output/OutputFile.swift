import ArgumentParser
import Foundation

/// Writing a command's `-o FILE`: all or nothing, owner-only (0600), and a file that cannot
/// be written is named with the system's reason ("cannot write /tmp: Is a directory") on
/// stderr and ends the command with 74 (EX_IOERR), not with the usage text.
enum OutputFile {
    /// Writes `bytes` to `path`: into a temporary file beside it, then renamed over it, so a
    /// failed write leaves no partial file (and an existing file as it was). A device or FIFO
    /// (`-o /dev/stdout`) is written in place.
    static func write(_ bytes: [UInt8], to path: String) throws {
        if let reason = failure(writing: bytes, to: path) {
            FileHandle.standardError.write(Data("compliancectl: cannot write \(path): \(reason)\n".utf8))
            throw Exit.ioError
        }
    }

    /// The reason `bytes` could not be written to `path`, or nil once they were.
    private static func failure(writing bytes: [UInt8], to path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return String(cString: strerror(EISDIR))
            case S_IFREG: break
            default: return writeInPlace(bytes, to: path)
            }
        }
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        if let reason = writeAll(bytes, to: descriptor) ?? (fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))) {
            close(descriptor)
            unlink(temporary)
            return reason
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        return nil
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        return writeAll(bytes, to: descriptor)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }
}
