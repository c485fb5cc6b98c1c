import ComplianceCore
import Crypto

/// File owners and re-protection (`IntuneMAMFileProtectionManager`), and protected buffers
/// (`IntuneMAMDataProtectionManager`: `protect`, `unprotect`, `protectionInfo`), under the
/// accounts' vault keys. Which mode to use is decided by ComplianceCore (``ProtectionMode``).
extension Vault {
    /// How a stored file is protected (`protectionInfo:` of a path).
    public struct FileProtection: Sendable, Hashable {
        /// The file's owner.
        public var owner: AccountID
        public var mode: ProtectionMode
        /// False for a file written before files carried an owner header: its owner is its
        /// directory's.
        public var ownerInHeader: Bool
    }

    /// The protection of `name` of the account, read from the file's header (only the header
    /// is read).
    /// - Throws: ``VaultError`` — `.invalidName`, `.notFound`, `.badFormat`, `.io`.
    public func fileProtection(_ account: AccountID, name: String) throws -> FileProtection {
        try VaultName.validate(name, account: account)
        let path = directory(for: account) + "/" + name
        guard let stored = try io(account, name, { try VaultFiles.read(path, limit: VaultFormat.maxHeaderCount) }) else {
            throw VaultError(code: .notFound, account: account.upn, name: name, message: "the account has no such file")
        }
        let header = try VaultFormat.checkedHeader(stored, name: name, account: account)
        return FileProtection(owner: account, mode: header.sealed ? .encrypted : .identityHeader, ownerInHeader: header.owner != nil)
    }

    /// The protection of every file of the account, by name. A file whose header is broken
    /// is left out with a warning (reading it names the problem).
    public func fileProtections(_ account: AccountID) throws -> [String: FileProtection] {
        var result: [String: FileProtection] = [:]
        for name in try list(account) {
            do {
                result[name] = try fileProtection(account, name: name)
            } catch let error as VaultError where error.code == .badFormat || error.code == .notFound {
                logger.warning("vault file skipped", metadata: ["account.id": "\(account.upn)", "vault.file": "\(name)", "error.message": "\(error.message)"])
            }
        }
        return result
    }

    /// Rewrites each of `names` encrypted under the account's key (created when missing), each
    /// atomically: a crash leaves every file either as it was or encrypted, never lost. A file
    /// gone or already encrypted by then is skipped; an account without a directory (wiped) is
    /// left alone. The manifest is then brought in line with every file's header (also those
    /// an interrupted earlier run encrypted). Returns the names it encrypted.
    /// - Throws: ``VaultError`` — `.badFormat`, `.keyMissing`, `.io`.
    public func encryptFiles(_ account: AccountID, names: [String]) throws -> [String] {
        let directory = directory(for: account)
        guard VaultFiles.exists(directory), var manifest = try readManifest(account, directory: directory) else { return [] }
        var encrypted: [String] = []
        var key: SymmetricKey?
        for name in names {
            try VaultName.validate(name, account: account)
            guard let stored = try io(account, name, { try VaultFiles.read(directory + "/" + name) }) else { continue }
            let header = try VaultFormat.checkedHeader(stored, name: name, account: account)
            if header.sealed { continue }
            let sealingKey = try key ?? loadKey(account, directory: directory, create: true)
            key = sealingKey
            let sealed: [UInt8]
            do {
                sealed = try VaultFormat.seal(Array(stored[header.count...]), name: name, owner: account, key: sealingKey)
            } catch {
                throw VaultError(code: .io, account: account.upn, name: name, message: "encryption failed: \(error)")
            }
            try io(account, name) { try VaultFiles.atomicWrite(sealed, directory: directory, name: name) }
            encrypted.append(name)
        }
        var changed = false
        for (name, protection) in try fileProtections(account) {
            let isEncrypted = protection.mode == .encrypted
            if var entry = manifest.files[name], entry.encrypted != isEncrypted {
                entry.encrypted = isEncrypted
                manifest.files[name] = entry
                changed = true
            }
        }
        if changed { try writeManifest(manifest, directory: directory) }
        if !encrypted.isEmpty {
            logger.info("vault files encrypted", metadata: ["account.id": "\(account.upn)", "vault.count": "\(encrypted.count)"])
        }
        return encrypted
    }

    // MARK: - Buffers

    /// Who owns a protected buffer and how it is protected (`IntuneMAMDataProtectionInfo`).
    public struct BufferProtection: Sendable, Hashable {
        /// The owner; nil: no user.
        public var owner: AccountID?
        public var mode: ProtectionMode
    }

    /// `protect:identity:`: `data` with an owner header, encrypted under the owner's key
    /// (created when missing) when `mode` is ``ProtectionMode/encrypted``.
    /// - Throws: ``VaultError`` — `.io`.
    public func protect(_ data: [UInt8], owner: AccountID?, mode: ProtectionMode) throws -> [UInt8] {
        var key: SymmetricKey?
        if mode == .encrypted {
            guard let owner else { preconditionFailure("protect: only an owner's data is encrypted") }
            let directory = try prepareDirectory(for: owner)
            key = try loadKey(owner, directory: directory, create: true)
        }
        do {
            return try ProtectedFormat.protect(data, owner: owner, key: key)
        } catch {
            throw VaultError(code: .io, account: owner?.upn, message: "encryption failed: \(error)")
        }
    }

    /// `protectionInfo:`: nil when `data` is not protected data (no `"CPRT"` header). Reads the
    /// header only: whether encrypted content is intact shows when it is unprotected.
    /// - Throws: ``VaultError`` — `.badFormat` naming what is wrong with the header.
    public func protectionInfo(_ data: [UInt8]) throws -> BufferProtection? {
        guard ProtectedFormat.isProtected(data) else { return nil }
        let header = try Self.checkedHeader(data)
        return BufferProtection(owner: try header.owner.map { try AccountID($0) }, mode: header.sealed ? .encrypted : .identityHeader)
    }

    /// `unprotect:`: the plain content of protected data; data that is not protected is
    /// returned unchanged (the SDK's rule).
    /// - Throws: ``VaultError`` — `.badFormat` (a broken header), `.keyMissing` (encrypted
    ///   under a key that is gone: its owner's data was wiped), `.tampered` (the content, or
    ///   the owner header, was changed), `.io`.
    public func unprotect(_ data: [UInt8]) throws -> [UInt8] {
        guard ProtectedFormat.isProtected(data) else { return data }
        let header = try Self.checkedHeader(data)
        guard header.sealed else { return Array(data[header.count...]) }
        guard let ownerKey = header.owner, let owner = try? AccountID(ownerKey) else {
            preconditionFailure("ProtectedFormat.header accepts encrypted data only with a valid owner")
        }
        var key: SymmetricKey?
        do {
            key = try loadKey(owner, directory: directory(for: owner), create: false)
        } catch let error as VaultError where error.code == .keyMissing {
            key = nil
        }
        if let id = header.keyID, key.map(ProtectedFormat.keyID) != id {
            // Not the owner's key now: another account's (the header was changed), or none.
            if try keyExists(withID: id) {
                throw VaultError(code: .tampered, account: owner.upn,
                                 message: "the owner header was changed: the data names \(owner.upn) but was encrypted under another account's key on this device")
            }
            throw VaultError(code: .keyMissing, account: owner.upn,
                             message: "the data is encrypted for \(owner.upn) under a key that is gone: that account's data was wiped (its key was destroyed, and any key since is a new one), or it was never protected on this device, so it cannot be decrypted")
        }
        guard let key else {
            throw VaultError(code: .keyMissing, account: owner.upn,
                             message: "the data is encrypted for \(owner.upn), whose key is gone: that account's data was wiped (or was never protected on this device), so it cannot be decrypted")
        }
        guard let plain = ProtectedFormat.open(data, header: header, key: key) else {
            throw VaultError(code: .tampered, account: owner.upn,
                             message: "the encrypted data failed authentication: modified, truncated, or protected under another key than \(owner.upn)'s on this device")
        }
        return plain
    }

    /// Whether any account's key on this device has the id `id` (``ProtectedFormat/keyID(_:)``).
    /// Reads each account directory's key; run only when a buffer's key id is not its owner's.
    private func keyExists(withID id: [UInt8]) throws -> Bool {
        let names = try io(nil, nil) { try VaultFiles.entries(root) ?? [] }.filter { !$0.hasPrefix(".") }
        return names.contains { name in
            guard let bytes = try? VaultFiles.read(root + "/" + name + "/" + Self.keyName), let key = VaultFormat.key(fromFile: bytes) else { return false }
            return ProtectedFormat.keyID(key) == id
        }
    }

    private static func checkedHeader(_ data: [UInt8]) throws -> ProtectedFormat.Header {
        switch ProtectedFormat.header(of: data) {
        case .success(let header): return header
        case .failure(let problem): throw VaultError(code: .badFormat, account: nil, message: "not valid protected data: " + problem.message)
        }
    }
}
