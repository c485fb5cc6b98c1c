import ComplianceCore
import Crypto

/// File owners (`IntuneMAMFileProtectionManager`), and protected buffers
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

    /// The protection of `name` of the account, read from the file's header.
    /// - Throws: ``VaultError`` — `.invalidName`, `.notFound`, `.badFormat`, `.io`.
    public func fileProtection(_ account: AccountID, name: String) throws -> FileProtection {
        try VaultName.validate(name, account: account)
        guard let stored = try io(account, name, { try VaultFiles.read(directory(for: account) + "/" + name) }) else {
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
    ///   for an account whose key is gone: its data was wiped), `.tampered`, `.io`.
    public func unprotect(_ data: [UInt8]) throws -> [UInt8] {
        guard ProtectedFormat.isProtected(data) else { return data }
        let header = try Self.checkedHeader(data)
        guard header.sealed else { return Array(data[header.count...]) }
        guard let ownerKey = header.owner, let owner = try? AccountID(ownerKey) else {
            preconditionFailure("ProtectedFormat.header accepts encrypted data only with a valid owner")
        }
        let path = directory(for: owner) + "/" + Self.keyName
        guard let bytes = try io(owner, nil, { try VaultFiles.read(path) }), let key = VaultFormat.key(fromFile: bytes) else {
            throw VaultError(code: .keyMissing, account: owner.upn,
                             message: "the data is encrypted for \(owner.upn), whose key is gone: that account's data was wiped (or was never protected on this device), so it cannot be decrypted")
        }
        guard let plain = ProtectedFormat.open(data, header: header, key: key) else {
            throw VaultError(code: .tampered, account: owner.upn,
                             message: "the encrypted data failed authentication: modified, truncated, or protected under another key than \(owner.upn)'s on this device")
        }
        return plain
    }

    private static func checkedHeader(_ data: [UInt8]) throws -> ProtectedFormat.Header {
        switch ProtectedFormat.header(of: data) {
        case .success(let header): return header
        case .failure(let problem): throw VaultError(code: .badFormat, account: nil, message: "not valid protected data: " + problem.message)
        }
    }
}
