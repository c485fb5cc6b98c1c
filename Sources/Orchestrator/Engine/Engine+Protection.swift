import ComplianceCore
import JSON

/// File owners, protected buffers (`IntuneMAMDataProtectionManager`) and the re-protection of
/// the managed account's files when its policy starts requiring encryption. ComplianceCore
/// decides who is managed and what is encrypted (``ProtectionMode``); the vault does the crypto.
extension Engine {
    /// A buffer as `protect` returned it.
    public struct ProtectedBuffer: Sendable, Hashable {
        public var bytes: [UInt8]
        /// The owner written in its header; nil: no user.
        public var owner: AccountID?
        public var mode: ProtectionMode
    }

    /// The owner and protection of `upn`'s file `name` (`IntuneMAMFileProtectionManager
    /// protectionInfo:`, the SDK's file owner), from the file's own header.
    public func fileProtection(_ upn: String, name: String) async throws(EngineError) -> Vault.FileProtection {
        let account = try knownAccount(upn)
        do {
            return try await vault.fileProtection(account, name: name)
        } catch {
            throw Self.vaultError(error, buffer: false)
        }
    }

    /// `protect:identity:`: `data` encrypted for the managed account, with the identity header
    /// alone for any other identity; `identity` nil or empty is no user. Any valid UPN may own
    /// data (an account the app never signed in is unmanaged); the managed account must be
    /// able to hold data (not blocked by `MAMPolicyRequired`), and no account may be leaving
    /// (``ComplianceMachine/bufferProtection(for:)``).
    public func protect(_ data: [UInt8], identity: String?) async throws(EngineError) -> ProtectedBuffer {
        let owner = try identity.flatMap { $0.isEmpty ? nil : $0 }.map { upn throws(EngineError) in try parseAccount(upn) }
        let mode: ProtectionMode
        switch machine.bufferProtection(for: owner) {
        case .success(let decided): mode = decided
        case .failure(let refusal): throw Self.error(refusal)
        }
        do {
            let bytes = try await vault.protect(data, owner: owner, mode: mode)
            return ProtectedBuffer(bytes: bytes, owner: owner, mode: mode)
        } catch {
            throw Self.vaultError(error, buffer: true)
        }
    }

    /// `protectionInfo:`: the owner and mode of protected data; nil when `data` is not
    /// protected data.
    public func protectionInfo(_ data: [UInt8]) async throws(EngineError) -> Vault.BufferProtection? {
        do {
            return try await vault.protectionInfo(data)
        } catch {
            throw Self.vaultError(error, buffer: true)
        }
    }

    /// `unprotect:`: the plain content and what protected it (nil: it was not protected data,
    /// returned unchanged). A file task like `getData`, under the same rule
    /// (``ComplianceMachine/dataReadRefusal(_:)``) applied to the owner in the buffer's header
    /// (none: no user): the managed account's data only under its process identity, and
    /// nothing while `MAMPolicyRequired` blocks the app.
    public func unprotect(_ data: [UInt8]) async throws(EngineError) -> (bytes: [UInt8], protection: Vault.BufferProtection?) {
        let protection: Vault.BufferProtection?
        do {
            protection = try await vault.protectionInfo(data)
        } catch {
            throw Self.vaultError(error, buffer: true)
        }
        if let refusal = machine.unprotectRefusal(isProtected: protection != nil, owner: protection?.owner) { throw Self.error(refusal) }
        do {
            return (try await vault.unprotect(data), protection)
        } catch {
            throw Self.vaultError(error, buffer: true)
        }
    }

    /// Encrypts `account`'s files stored plain that its policy requires encrypted
    /// (``DataProtectionPolicy/filesToEncrypt(_:)``), each rewritten atomically: the machine's
    /// `.encryptPlainFiles` job (it decides when; ``ComplianceMachine/startDueReprotection()``).
    /// Answers the names encrypted, or `.failed` when the disk refuses (the machine tries again
    /// at its next event). When the requirement is lifted nothing is decrypted.
    func encryptPlainFiles(_ account: AccountID) async -> ComplianceMachine.StepResult {
        let policy = machine.dataProtectionPolicy(for: account)
        do {
            try testHooks.storageFaults.take(.vault)
            let names = policy.filesToEncrypt(try await vault.fileProtections(account).mapValues(\.mode))
            guard !names.isEmpty else { return .encrypted(files: []) }
            return .encrypted(files: try await vault.encryptFiles(account, names: names))
        } catch {
            logger.error("cannot encrypt the managed account's files; tried again at the next step",
                         metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .failed("the managed account's files cannot be encrypted: \(error)")
        }
    }

    /// The engine error for a vault error, of a file or a vault call (`buffer` false: a broken file is the
    /// vault's fault) or of a caller's buffer (a broken buffer is the caller's input).
    static func vaultError(_ error: any Error, buffer: Bool) -> EngineError {
        if let fault = error as? StorageFault {
            return EngineError(.storageUnavailable, "the vault cannot be written (\(fault)); nothing was stored. Try again once the disk has room.")
        }
        guard let error = error as? VaultError else { return EngineError(.internalError, "\(error)") }
        switch error.code {
        case .invalidName: return EngineError(.badRequest, error.message)
        case .notFound: return EngineError(.notFound, error.description)
        case .badFormat where buffer: return EngineError(.invalidProtectedData, error.message)
        case .tampered where buffer: return EngineError(.tampered, error.message)
        case .keyMissing where buffer: return EngineError(.keyGone, error.message)
        // The disk refused (full, read-only, gone): storage is unavailable, not the daemon broken.
        case .io: return EngineError(.storageUnavailable, error.description + "; nothing was changed. Try again once the disk has room.")
        default: return EngineError(.internalError, error.description)
        }
    }
}
