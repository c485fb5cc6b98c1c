import ComplianceCore
import Crypto

/// The on-disk format of vault files and of the per-account key file.
///
/// A vault file is `"CVLT"`, a version byte (1), a mode byte, then the payload:
/// mode 0 — the plain bytes; mode 1 — an AES-256-GCM sealed box in its combined
/// representation (12-byte nonce, ciphertext, 16-byte tag). The header and the file name are
/// authenticated as associated data, so a file renamed or moved to another name fails to open.
/// The key file is `"CVKY"`, a version byte (1), then the 32 key bytes.
enum VaultFormat {
    static let magic: [UInt8] = Array("CVLT".utf8)
    static let keyMagic: [UInt8] = Array("CVKY".utf8)
    static let version: UInt8 = 1
    static let plainMode: UInt8 = 0
    static let sealedMode: UInt8 = 1
    static let headerCount = 6

    static func header(mode: UInt8) -> [UInt8] { magic + [version, mode] }

    /// Whether stored bytes are an encrypted file (only meaningful after ``open`` checks).
    static func isSealed(_ stored: [UInt8]) -> Bool {
        stored.count >= headerCount && Array(stored.prefix(4)) == magic && stored[5] == sealedMode
    }

    /// The stored form of `plaintext`: sealed under `key` when given, plain otherwise.
    static func seal(_ plaintext: [UInt8], name: String, key: SymmetricKey?) throws -> [UInt8] {
        guard let key else { return header(mode: plainMode) + plaintext }
        let header = header(mode: sealedMode)
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: header + Array(name.utf8))
        guard let combined = box.combined else { preconditionFailure("AES.GCM with the default 12-byte nonce always has a combined form") }
        return header + Array(combined)
    }

    /// The plaintext of stored bytes. `key` is asked for only when the file is sealed.
    static func open(_ stored: [UInt8], name: String, account: AccountID, key: () throws -> SymmetricKey) throws -> [UInt8] {
        func failure(_ code: VaultError.Code, _ message: String) -> VaultError {
            VaultError(code: code, account: account.upn, name: name, message: message)
        }
        guard stored.count >= headerCount, Array(stored.prefix(4)) == magic else {
            throw failure(.badFormat, "the file does not start with the vault header")
        }
        guard stored[4] == version else { throw failure(.badFormat, "unknown vault format version \(stored[4])") }
        let payload = stored[headerCount...]
        switch stored[5] {
        case plainMode:
            return Array(payload)
        case sealedMode:
            let sealingKey = try key()
            do {
                let box = try AES.GCM.SealedBox(combined: payload)
                let plaintext = try AES.GCM.open(box, using: sealingKey, authenticating: Array(stored.prefix(headerCount)) + Array(name.utf8))
                return Array(plaintext)
            } catch {
                throw failure(.tampered, "the encrypted file failed authentication (modified, truncated, or not written under this name and account)")
            }
        default:
            throw failure(.badFormat, "unknown vault file mode \(stored[5])")
        }
    }

    /// The key file's bytes for `key`.
    static func keyFile(_ key: SymmetricKey) -> [UInt8] {
        keyMagic + [version] + key.withUnsafeBytes { Array($0) }
    }

    /// The key in a key file, or nil when the bytes are not a valid key file.
    static func key(fromFile bytes: [UInt8]) -> SymmetricKey? {
        guard bytes.count == keyMagic.count + 1 + 32, Array(bytes.prefix(4)) == keyMagic, bytes[4] == version else { return nil }
        return SymmetricKey(data: bytes[5...])
    }
}
