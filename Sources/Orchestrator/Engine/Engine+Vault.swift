import ComplianceCore

/// Managed data of signed-in accounts (the vault), encrypted when the policy requires it.
extension Engine {
    /// A vault file as listed.
    public struct DataFile: Sendable, Hashable {
        public var name: String
        public var size: Int
        public var encrypted: Bool
        /// The owner its header names (the account whose directory holds it, for a file written
        /// before files carried one); nil when its header cannot be read.
        public var owner: AccountID? = nil
    }

    /// Stores `bytes` as `name` for `upn`: encrypted when `upn` is the managed account and its
    /// policy says `fileEncryptionRequired`, plain for an unmanaged account (its directory's
    /// manifest still names it as the owner). The account must be signed in and not being wiped.
    public func putData(_ upn: String, name: String, bytes: [UInt8]) async throws(EngineError) -> DataFile {
        let account = try knownAccount(upn)
        if let refusal = machine.dataRefusal(account) { throw Self.error(refusal) }
        let encrypt = machine.isFileEncryptionRequired(for: account)
        do {
            try testHooks.storageFaults.take(.vaultWrite)
            try await vault.put(account, name: name, bytes: bytes, encrypt: encrypt)
        } catch {
            throw Self.vaultError(error, buffer: false)
        }
        return DataFile(name: name, size: bytes.count, encrypted: encrypt, owner: account)
    }

    /// The vault directory of `account` (what the wipe hook gets as `COMPLIANCE_WIPE_DIRECTORY`).
    public nonisolated func vaultDirectory(for account: AccountID) -> String {
        vault.directory(for: account)
    }

    /// The content of `name` for `upn`. Managed data (the managed account's) only while the
    /// app's process identity is `upn` or unset (`identity_mismatch` otherwise:
    /// ``ComplianceMachine/dataReadRefusal(_:)``, the rule `unprotect` follows too).
    public func getData(_ upn: String, name: String) async throws(EngineError) -> [UInt8] {
        let account = try knownAccount(upn)
        if let refusal = machine.dataReadRefusal(account) { throw Self.error(refusal) }
        do {
            return try await vault.get(account, name: name)
        } catch {
            throw Self.vaultError(error, buffer: false)
        }
    }

    /// `upn`'s files, by name, each with its owner and whether it is encrypted as its header
    /// says (the manifest's record when the header cannot be read).
    public func listData(_ upn: String) async throws(EngineError) -> [DataFile] {
        let account = try knownAccount(upn)
        do {
            let names = try await vault.list(account)
            let manifest = try await vault.manifest(for: account)
            let protections = try await vault.fileProtections(account)
            return names.map { name in
                let entry = manifest?.files[name]
                let protection = protections[name]
                let encrypted = protection.map { $0.mode == .encrypted } ?? entry?.encrypted ?? false
                return DataFile(name: name, size: entry?.size ?? 0, encrypted: encrypted, owner: protection?.owner)
            }
        } catch {
            throw Self.vaultError(error, buffer: false)
        }
    }

    /// Removes `name` for `upn`; returns whether it existed.
    public func removeData(_ upn: String, name: String) async throws(EngineError) -> Bool {
        let account = try knownAccount(upn)
        do {
            return try await vault.remove(account, name: name)
        } catch {
            throw Self.vaultError(error, buffer: false)
        }
    }
}
