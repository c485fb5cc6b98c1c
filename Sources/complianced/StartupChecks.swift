import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// What complianced checks before it starts, each failure a message naming the path and the
/// rule (the caller prints it and exits 2).
enum StartupChecks {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A unix socket path holds at most 107 bytes (`sun_path` is 108 with its NUL).
    static func socketPathFits(_ path: String) throws {
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
        guard path.utf8.count <= limit else {
            throw Failure(description: "the control socket path '\(path)' is \(path.utf8.count) bytes long; a unix socket path holds at most \(limit): choose a shorter --state-dir")
        }
    }

    static func readableFile(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw Failure(description: "\(option) '\(path)' is not a readable file")
        }
    }

    /// A confidential client's secret from `path`: a regular file only its owner may read
    /// (no group or other permission bits), holding the secret on its first line.
    static func clientSecret(_ path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Failure(description: "--client-secret-file '\(path)' cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "--client-secret-file '\(path)' is not a regular file") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw Failure(description: "--client-secret-file '\(path)' may be read by other users (mode \(String(mode, radix: 8))); restrict it to its owner (chmod 600)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Failure(description: "--client-secret-file '\(path)' cannot be read as UTF-8 text")
        }
        let secret = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !secret.isEmpty else { throw Failure(description: "--client-secret-file '\(path)' is empty") }
        return secret
    }

    /// Creates the state directory (0700), or checks the existing one: a directory this user
    /// can write. Group or other permission bits on it are removed (it holds tokens and the
    /// socket), with a notice.
    static func prepareStateDirectory(_ path: String, logger: Logger) throws {
        if let problem = brokenLink(path) { throw Failure(description: "--state-dir '\(path)' \(problem)") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "--state-dir '\(path)' exists and is not a directory") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Failure(description: "cannot create the state directory '\(path)': \(blockingAncestor(of: path) ?? reason(error))")
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw Failure(description: "the state directory '\(path)' is not writable by this user (uid \(geteuid()))")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(description: "cannot read the state directory '\(path)': \(String(cString: strerror(errno)))") }
        let mode = status.st_mode & 0o777
        if mode & 0o077 != 0 {
            guard chmod(path, mode_t(0o700)) == 0 else {
                throw Failure(description: "the state directory '\(path)' is open to other users (mode \(String(mode, radix: 8))) and cannot be restricted: \(String(cString: strerror(errno)))")
            }
            logger.notice("state directory restricted to its owner", metadata: ["state.dir": "\(path)", "mode.before": "\(String(mode, radix: 8))", "mode.after": "700"])
        }
    }

    /// What stops a directory at `path` being made, said of the first ancestor at fault (a file
    /// where a directory would have to be, a link to nothing, a loop of links), which
    /// Foundation's error does not name ("a file with the same name already exists").
    private static func blockingAncestor(of path: String) -> String? {
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        var chain: [String] = []
        while ancestor.path != "/" && !ancestor.path.isEmpty {
            chain.append(ancestor.path)
            ancestor = ancestor.deletingLastPathComponent()
        }
        for directory in chain.reversed() {
            if let problem = brokenLink(directory) { return "'\(directory)' \(problem)" }
            var status = stat()
            guard stat(directory, &status) == 0 else { return nil }  // missing: created with the rest
            if status.st_mode & S_IFMT != S_IFDIR { return "'\(directory)' is not a directory" }
        }
        return nil
    }

    /// How `path` fails as a symbolic link ("is a symbolic link to nothing", "is a loop of
    /// symbolic links"), or nil when it is no link or one that leads somewhere.
    private static func brokenLink(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, stat(path, &status) != 0 else { return nil }
        switch errno {
        case ENOENT: return "is a symbolic link to nothing"
        case ELOOP: return "is a loop of symbolic links"
        default: return "is a symbolic link that cannot be followed: \(String(cString: strerror(errno)))"
        }
    }

    /// The underlying POSIX reason of a Foundation file error, without the NSError dump.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
