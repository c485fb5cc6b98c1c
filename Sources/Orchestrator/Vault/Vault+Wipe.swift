import ComplianceCore
import Foundation

extension Vault {
    /// Removes exactly the account's directory (files, manifest, key) and nothing else.
    ///
    /// The directory is first renamed to `.wipe-<directory-name>` (atomic: from then on the
    /// account has no data), then deleted. Idempotent, and safe to call again after a crash at
    /// any point: a leftover `.wipe-` directory of the account is finished off.
    /// - Returns: whether there was anything to remove.
    @discardableResult
    public func wipe(_ account: AccountID) throws -> Bool {
        let directory = directory(for: account)
        let trash = root + "/" + Self.wipePrefix + Self.directoryName(for: account)
        var removed = false
        try io(account, nil) {
            if VaultFiles.exists(directory) {
                if VaultFiles.exists(trash) { try Self.removeTree(trash) }
                guard rename(directory, trash) == 0 else { throw SystemCallError("rename", directory) }
                try VaultFiles.syncDirectory(root)
                removed = true
            }
            if VaultFiles.exists(trash) {
                try Self.removeTree(trash)
                try VaultFiles.syncDirectory(root)
                removed = true
            }
        }
        if removed { logger.info("vault wiped", metadata: ["account.id": "\(account.upn)"]) }
        return removed
    }

    /// Deletes `.wipe-*` directories left by a crash mid-wipe; returns how many. Call on start.
    @discardableResult
    public func finishInterruptedWipes() throws -> Int {
        let leftovers = try io(nil, nil) { try VaultFiles.entries(root) ?? [] }.filter { $0.hasPrefix(Self.wipePrefix) }
        for name in leftovers {
            try io(nil, nil) { try Self.removeTree(root + "/" + name) }
        }
        if !leftovers.isEmpty {
            try io(nil, nil) { try VaultFiles.syncDirectory(root) }
            logger.info("finished interrupted vault wipes", metadata: ["vault.count": "\(leftovers.count)"])
        }
        return leftovers.count
    }

    /// Deletes a directory tree without following symlinks (a symlink is removed, not its target).
    static func removeTree(_ path: String) throws(SystemCallError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw SystemCallError("stat", path)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in try VaultFiles.entries(path) ?? [] {
                try removeTree(path + "/" + name)
            }
            if rmdir(path) != 0, errno != ENOENT { throw SystemCallError("rmdir", path) }
        } else if unlink(path) != 0, errno != ENOENT {
            throw SystemCallError("unlink", path)
        }
    }
}
