import Foundation

/// Writing a command's output files the way every command of ours does: all or nothing.
///
/// - A regular file (or a symbolic link to one) is replaced atomically: the bytes go to a
///   temporary file in the target's folder, are synced, and the temporary file is renamed over
///   the target. The target keeps its permissions and, where the process may, its owner (else
///   it loses any setuid/setgid bit); a symbolic link stays a link (its target is replaced); a
///   hard link is split.
/// - A new file is created owner-only (0600), or, for a report meant for other readers (a CI
///   artifact: `shared`), with the mode the umask leaves (0644 under the usual 022).
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: the process's own descriptor
///   is written (an appended log stays appended, a pipe gets the bytes).
/// - A device, FIFO or socket is written in place, never replaced.
/// - A directory, a dangling or looping symbolic link, or an empty path is refused.
///
/// Failures are returned as the system's reason ("Is a directory"), for the caller to name the
/// path and choose its exit. A process killed between the temporary file and the rename may
/// leave the temporary file (`.NAME.….tmp`) beside the target; the target is untouched.
public enum FileOutput {
    /// Writes `bytes` to `path`; nil once written, else why it could not be.
    public static func write(_ bytes: [UInt8], to path: String, shared: Bool = false) -> String? {
        write([(bytes: bytes, path: path)], shared: shared)?.reason
    }

    /// Writes each file, all or nothing as far as the system allows: every replacement is
    /// staged (written and synced to its temporary file) before the first rename, so a failure
    /// while staging changes none of them. Returns the first failure's path and reason.
    public static func write(_ files: [(bytes: [UInt8], path: String)], shared: Bool = false) -> (path: String, reason: String)? {
        var staged: [(temporary: String, target: String, path: String)] = []
        func discard() { for item in staged { unlink(item.temporary) } }
        var inPlace: [(bytes: [UInt8], target: Target, path: String)] = []
        for (bytes, path) in files {
            let target: Target
            switch resolve(path) {
            case .failure(let reason): discard(); return (path, reason.text)
            case .success(let resolved): target = resolved
            }
            switch target {
            case .replace(let file, let info):
                switch stage(bytes, beside: file, like: info, shared: shared) {
                case .failure(let reason): discard(); return (path, reason.text)
                case .success(let temporary): staged.append((temporary, file, path))
                }
            case .descriptor, .special:
                inPlace.append((bytes, target, path))
            }
        }
        for (index, item) in staged.enumerated() where rename(item.temporary, item.target) != 0 {
            let reason = String(cString: strerror(errno))
            for rest in staged[index...] { unlink(rest.temporary) }
            return (item.path, reason)
        }
        for (bytes, target, path) in inPlace {
            if let reason = writeInPlace(bytes, target) { return (path, reason) }
        }
        return nil
    }

    /// The process's umask (read by setting it and back: the system has no other way).
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Why `path` could not be written, checked without writing (for a command to refuse its
    /// output path before it does long work); nil when it looks writable.
    public static func cannotWrite(_ path: String) -> String? {
        if path.hasSuffix("/") { return "a folder path, not a file's" }
        switch resolve(path) {
        case .failure(let reason):
            return reason.text
        case .success(.descriptor), .success(.special):
            return nil
        case .success(.replace(let file, _)):
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            var info = stat()
            guard stat(folder, &info) == 0 else { return "the folder \(folder) does not exist" }
            guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
            guard access(folder, W_OK | X_OK) == 0 else { return "the folder \(folder) cannot be written (\(String(cString: strerror(errno))))" }
            return nil
        }
    }

    /// Where a path's bytes go.
    private enum Target {
        /// A regular file to replace (or to create: `info` nil).
        case replace(String, stat?)
        /// One of the process's own descriptors (`/dev/stdout`, `/dev/fd/1`).
        case descriptor(Int32)
        /// A device, FIFO or socket, opened and written.
        case special(String)
    }

    private static func resolve(_ path: String) -> Result<Target, Reason> {
        guard !path.isEmpty else { return .failure(Reason("the path is empty")) }
        if let descriptor = ownDescriptor(path) { return .success(.descriptor(descriptor)) }
        var target = path
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                let code = errno
                let reason = String(cString: strerror(code))
                return .failure(Reason(code == ELOOP ? "a symbolic link loop (\(reason))" : "a symbolic link to a missing file (\(reason))"))
            }
            target = String(cString: resolved)
            free(resolved)
            if let descriptor = ownDescriptor(target) { return .success(.descriptor(descriptor)) }
        }
        var info = stat()
        guard stat(target, &info) == 0 else { return .success(.replace(target, nil)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .failure(Reason(String(cString: strerror(EISDIR))))
        case S_IFREG: return .success(.replace(target, info))
        default: return .success(.special(target))
        }
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/fd/N` or
    /// `/proc/self/fd/N` names, if `path` is one of them.
    private static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        case "/dev/stdin": return 0
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Writes `bytes` to a new temporary file beside `path` with the mode (and, where allowed,
    /// owner) of `original`, or a new file's mode; returns the temporary file.
    private static func stage(_ bytes: [UInt8], beside path: String, like original: stat?, shared: Bool) -> Result<String, Reason> {
        let url = URL(fileURLWithPath: path)
        let name = String(url.lastPathComponent.utf8.prefix(100)) ?? "output"
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(Reason(String(cString: strerror(errno)))) }
        var mode: mode_t = shared ? 0o666 & ~currentUmask() : 0o600
        if let original {
            mode = original.st_mode & 0o7777
            if original.st_uid != geteuid() || original.st_gid != getegid(), fchown(descriptor, original.st_uid, original.st_gid) != 0 {
                mode &= ~(S_ISUID | S_ISGID)  // another owner's file: never a set-id file of ours
            }
        }
        let failure = writeAll(bytes, to: descriptor)
            ?? (fchmod(descriptor, mode) == 0 ? nil : String(cString: strerror(errno)))
            ?? (fsync(descriptor) == 0 ? nil : String(cString: strerror(errno)))
        close(descriptor)
        if let failure {
            unlink(temporary)
            return .failure(Reason(failure))
        }
        return .success(temporary)
    }

    private static func writeInPlace(_ bytes: [UInt8], _ target: Target) -> String? {
        switch target {
        case .descriptor(let descriptor):
            return writeAll(bytes, to: descriptor)
        case .special(let path):
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return String(cString: strerror(errno)) }
            defer { close(descriptor) }
            return writeAll(bytes, to: descriptor)
        case .replace:
            return nil
        }
    }

    /// Writes all of `bytes` to `descriptor` (short writes and EINTR retried); nil when done,
    /// else the system's reason.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
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

    private struct Reason: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
