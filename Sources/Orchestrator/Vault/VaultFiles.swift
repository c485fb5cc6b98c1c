import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable, owner-only file operations: atomic replace, no symlink following.
enum VaultFiles {
    /// Writes `bytes` to `directory/name` atomically: a 0600 temp file in the same directory,
    /// fsync, rename over the target, fsync of the directory. A crash leaves the old content or
    /// the new one, plus at worst a `.tmp-*` file.
    static func atomicWrite(_ bytes: [UInt8], directory: String, name: String) throws(SystemCallError) {
        let temporary = directory + "/.tmp-" + UUID().uuidString
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemCallError("create", temporary) }
        var failure: SystemCallError?
        if fchmod(fd, 0o600) != 0 { failure = SystemCallError("chmod", temporary) }
        if failure == nil { failure = writeAll(fd, bytes, path: temporary) }
        if failure == nil, fsync(fd) != 0 { failure = SystemCallError("fsync", temporary) }
        if close(fd) != 0, failure == nil { failure = SystemCallError("close", temporary) }
        if failure == nil, rename(temporary, directory + "/" + name) != 0 { failure = SystemCallError("rename", temporary) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        try syncDirectory(directory)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) -> SystemCallError? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return SystemCallError("write", path)
            }
            offset += written
        }
        return nil
    }

    /// The content of a regular file, or nil when it does not exist; with `limit`, at most its
    /// first `limit` bytes (a header).
    static func read(_ path: String, limit: Int = .max) throws(SystemCallError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw SystemCallError("open", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError("stat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SystemCallError("open", path, code: EISDIR) }
        var result: [UInt8] = []
        result.reserveCapacity(min(Int(info.st_size), limit))
        var chunk = [UInt8](repeating: 0, count: min(64 * 1024, limit))
        while result.count < limit {
            let wanted = min(chunk.count, limit - result.count)
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("read", path)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// Removes a file; returns whether it existed.
    static func remove(_ path: String) throws(SystemCallError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw SystemCallError("unlink", path)
    }

    /// Makes renames and unlinks in `directory` durable.
    static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open", directory) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw SystemCallError("fsync", directory) }
    }

    /// The names in `directory`, or nil when it does not exist.
    static func entries(_ directory: String) throws(SystemCallError) -> [String]? {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return nil }
            throw SystemCallError("opendir", directory)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` exists, without following a final symlink.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
