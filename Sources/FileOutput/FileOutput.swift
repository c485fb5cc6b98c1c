import Foundation

/// Writing a command's output file the way every command of ours does: all or nothing.
///
/// - A regular file (or a symbolic link to one) is replaced atomically: the bytes go to a
///   temporary file in the target's folder, are synced, and the temporary file is renamed over
///   the target. The target keeps its permissions; a symbolic link stays a link (its target is
///   what is replaced).
/// - A new file is created owner-only (0600).
/// - A device, FIFO or socket (`/dev/stdout`, a named pipe) is written in place, never replaced.
/// - A directory, a dangling symbolic link or an empty path is refused.
///
/// Failures are returned as the system's reason ("Is a directory"), for the caller to name the
/// path and choose its exit.
public enum FileOutput {
    /// Writes `bytes` to `path`; nil once written, else why it could not be.
    public static func write(_ bytes: [UInt8], to path: String) -> String? {
        guard !path.isEmpty else { return "the path is empty" }
        var target = path
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                return "a symbolic link to a missing file (\(String(cString: strerror(errno))))"
            }
            target = String(cString: resolved)
            free(resolved)
        }
        var info = stat()
        var mode: mode_t = 0o600
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return String(cString: strerror(EISDIR))
            case S_IFREG: mode = info.st_mode & 0o7777
            default: return writeInPlace(bytes, to: target)
            }
        }
        return replace(target, with: bytes, mode: mode)
    }

    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) -> String? {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        let failure = writeAll(bytes, to: descriptor)
            ?? (fchmod(descriptor, mode) == 0 ? nil : String(cString: strerror(errno)))
            ?? (fsync(descriptor) == 0 ? nil : String(cString: strerror(errno)))
        close(descriptor)
        if let failure {
            unlink(temporary)
            return failure
        }
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
