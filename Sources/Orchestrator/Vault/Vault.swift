import ComplianceCore
import Crypto
import Foundation
import Logging

/// Per-account managed files under `STATE_DIR/vault/<account-directory>/`.
///
/// The directory name is the hex SHA-256 of the lowercased UPN (``directoryName(for:)``):
/// fixed length, collision-free, never the raw UPN. Directories are 0700, files 0600, every
/// write is atomic. Every file carries a header naming its owner (``VaultFormat``, the SDK's
/// file owner); each account directory holds a `.manifest` recording its owner and files,
/// and, once an encrypted file is put, a `.key` with the account's AES-256 key. Names starting
/// with a dot are reserved and refused from callers, so no name can reach them or leave the
/// directory. One actor serializes all operations.
public actor Vault {
    /// The vault's root directory (`STATE_DIR/vault`).
    public nonisolated let root: String
    let logger: Logger
    let clock: @Sendable () -> EpochMillis

    static let manifestName = ".manifest"
    static let keyName = ".key"
    static let wipePrefix = ".wipe-"

    /// Opens the vault at `stateDirectory/vault`, creating it with mode 0700.
    public init(
        stateDirectory: String,
        clock: @escaping @Sendable () -> EpochMillis = OrchestratorStore.wallClock,
        logger: Logger
    ) throws {
        try self.init(root: (stateDirectory as NSString).appendingPathComponent("vault"), clock: clock, logger: logger)
    }

    /// Opens the vault rooted at `root`, creating it with mode 0700.
    public init(root: String, clock: @escaping @Sendable () -> EpochMillis = OrchestratorStore.wallClock, logger: Logger) throws {
        self.root = root
        self.clock = clock
        self.logger = logger
        do {
            try FileSecurity.makeDirectory(root)
        } catch {
            throw VaultError(code: .io, account: nil, message: "cannot create the vault directory: \(error)")
        }
    }

    /// The account's directory name: lowercase hex of SHA-256 over the lowercased UPN.
    public nonisolated static func directoryName(for account: AccountID) -> String {
        SHA256.hash(data: Array(account.key.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The account's directory (whether or not it exists).
    public nonisolated func directory(for account: AccountID) -> String {
        root + "/" + Self.directoryName(for: account)
    }

    /// Stores `bytes` as `name` for the account, replacing any previous content atomically.
    /// Every file starts with a header naming its owner (``VaultFormat``); with `encrypt`
    /// (policy `fileEncryptionRequired`) the content is sealed with AES-GCM under the account's
    /// key, created on first use.
    /// - Throws: ``VaultError`` — `.invalidName` (nothing is written), `.io`.
    public func put(_ account: AccountID, name: String, bytes: [UInt8], encrypt: Bool) throws {
        try VaultName.validate(name, account: account)
        let directory = try prepareDirectory(for: account)
        let key = encrypt ? try loadKey(account, directory: directory, create: true) : nil
        let stored: [UInt8]
        do {
            stored = try VaultFormat.seal(bytes, name: name, owner: account, key: key)
        } catch {
            throw VaultError(code: .io, account: account.upn, name: name, message: "encryption failed: \(error)")
        }
        try io(account, name) { try VaultFiles.atomicWrite(stored, directory: directory, name: name) }
        var manifest = try readManifest(account, directory: directory) ?? VaultManifest(account: account)
        manifest.files[name] = .init(encrypted: encrypt, size: bytes.count, updatedAt: clock())
        try writeManifest(manifest, directory: directory)
        logger.debug("vault file stored", metadata: ["account.id": "\(account.upn)", "vault.file": "\(name)", "vault.encrypted": "\(encrypt)"])
    }

    /// The content of `name` for the account, decrypted when it was stored encrypted.
    /// - Throws: ``VaultError`` — `.invalidName`, `.notFound`, `.tampered` (authentication
    ///   failed), `.badFormat`, `.keyMissing`, `.io`.
    public func get(_ account: AccountID, name: String) throws -> [UInt8] {
        try VaultName.validate(name, account: account)
        let directory = directory(for: account)
        guard let stored = try io(account, name, { try VaultFiles.read(directory + "/" + name) }) else {
            throw VaultError(code: .notFound, account: account.upn, name: name, message: "the account has no such file")
        }
        return try VaultFormat.open(stored, name: name, account: account) {
            try loadKey(account, directory: directory, create: false)
        }
    }

    /// The account's file names, sorted; empty when it has none.
    public func list(_ account: AccountID) throws -> [String] {
        let names = try io(account, nil) { try VaultFiles.entries(directory(for: account)) } ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Removes `name` for the account; returns whether it existed.
    @discardableResult
    public func remove(_ account: AccountID, name: String) throws -> Bool {
        try VaultName.validate(name, account: account)
        let directory = directory(for: account)
        let existed = try io(account, name) { try VaultFiles.remove(directory + "/" + name) }
        if existed { try io(account, name) { try VaultFiles.syncDirectory(directory) } }
        if var manifest = try readManifest(account, directory: directory), manifest.files.removeValue(forKey: name) != nil {
            try writeManifest(manifest, directory: directory)
        }
        return existed
    }

    /// Whether the account holds any managed data (files or a key).
    public func hasData(_ account: AccountID) -> Bool {
        VaultFiles.exists(directory(for: account)) || VaultFiles.exists(root + "/" + Self.wipePrefix + Self.directoryName(for: account))
    }

    /// The account's ownership record, or nil when it has no directory.
    public func manifest(for account: AccountID) throws -> VaultManifest? {
        try readManifest(account, directory: directory(for: account))
    }

    /// Runs `body`, turning a failed system call into ``VaultError/Code/io``.
    func io<T>(_ account: AccountID?, _ name: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError(code: .io, account: account?.upn, name: name, message: "\(error)")
        }
    }
}
