import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call on a path, with the errno text.
struct SystemCallError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    init(_ operation: String, _ path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// Owner-only files and directories for the store and the vault.
enum FileSecurity {
    /// Creates `path` and missing parents with mode 0700; an existing directory is left as is.
    static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SystemCallError("mkdir", path, code: ENOTDIR) }
            return
        }
        // Not NSString.deletingLastPathComponent: it traps on a one-character name ("z", "d/").
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw SystemCallError("mkdir", path) }
        // mkdir applies the umask; 0700 must hold whatever it is.
        try restrict(path, mode: 0o700)
    }

    /// Creates an empty regular file with mode 0600 unless it exists; an existing file whose
    /// mode grants group or other access is tightened to 0600.
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            try restrict(path, mode: 0o600)
            return
        }
        guard errno == EEXIST else { throw SystemCallError("create", path) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemCallError("stat", path) }
        if info.st_mode & 0o077 != 0 { try restrict(path, mode: 0o600) }
    }

    /// Sets the permission bits of `path`.
    static func restrict(_ path: String, mode: mode_t) throws {
        if chmod(path, mode) != 0 { throw SystemCallError("chmod", path) }
    }

    /// The permission bits of `path`, or nil when it does not exist.
    static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}
