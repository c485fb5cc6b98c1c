import ComplianceCore
import Crypto

/// The on-disk format of vault files and of the per-account key file.
///
/// A vault file (version 2) is `"CVLT"`, a version byte (2), a mode byte, the owner's length
/// (2 bytes, big-endian, 1 to ``maxOwnerBytes``) and the owner (the account's normalised UPN,
/// ``AccountID/key``, UTF-8), then the payload: mode 0 — the plain bytes; mode 1 — an
/// AES-256-GCM sealed box in its combined representation (12-byte nonce, ciphertext, 16-byte
/// tag). The header (owner included) and the file name are authenticated as associated data,
/// so a sealed file renamed, moved, or given another owner fails to open; a plain file whose
/// header names another owner than its directory's is refused as well.
///
/// Version 1 (written before files carried their owner: `"CVLT"`, 1, mode, payload) is still
/// read; its owner is the directory's (the manifest's).
/// The key file is `"CVKY"`, a version byte (1), then the 32 key bytes.
enum VaultFormat {
    static let magic: [UInt8] = Array("CVLT".utf8)
    static let keyMagic: [UInt8] = Array("CVKY".utf8)
    static let keyVersion: UInt8 = 1
    /// Files without an owner header.
    static let legacyVersion: UInt8 = 1
    static let version: UInt8 = 2
    static let plainMode: UInt8 = 0
    static let sealedMode: UInt8 = 1
    static let legacyHeaderCount = 6
    static let maxOwnerBytes = 1024
    /// The longest header: what a reader of the header alone needs.
    static let maxHeaderCount = legacyHeaderCount + 2 + maxOwnerBytes

    /// What a stored file's header says.
    struct Header: Sendable, Hashable {
        /// The owner's key, nil for a version-1 file (no owner header).
        var owner: String?
        var sealed: Bool
        /// Where the payload starts.
        var count: Int
    }

    /// The version-2 header for `owner`.
    static func header(sealed: Bool, owner: AccountID) -> [UInt8] {
        let ownerBytes = Array(owner.key.utf8)
        precondition(ownerBytes.count <= maxOwnerBytes, "an AccountID key is at most \(maxOwnerBytes) bytes; got \(ownerBytes.count)")
        return magic + [version, sealed ? sealedMode : plainMode, UInt8(ownerBytes.count >> 8), UInt8(ownerBytes.count & 0xFF)] + ownerBytes
    }

    /// The header of stored bytes, or what is wrong with it.
    static func header(of stored: [UInt8]) -> Result<Header, HeaderProblem> {
        guard stored.count >= legacyHeaderCount, Array(stored.prefix(4)) == magic else {
            return .failure(HeaderProblem("the file does not start with the vault header"))
        }
        let mode = stored[5]
        guard mode == plainMode || mode == sealedMode else { return .failure(HeaderProblem("unknown vault file mode \(mode)")) }
        switch stored[4] {
        case legacyVersion:
            return .success(Header(owner: nil, sealed: mode == sealedMode, count: legacyHeaderCount))
        case version:
            return ProtectedFormat.owner(in: stored, at: legacyHeaderCount, allowEmpty: false).map { owner, end in
                Header(owner: owner, sealed: mode == sealedMode, count: end)
            }
        case let other:
            return .failure(HeaderProblem("unknown vault format version \(other)"))
        }
    }

    /// The stored form of `plaintext` for `owner`: sealed under `key` when given, plain otherwise.
    static func seal(_ plaintext: [UInt8], name: String, owner: AccountID, key: SymmetricKey?) throws -> [UInt8] {
        let header = header(sealed: key != nil, owner: owner)
        guard let key else { return header + plaintext }
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: header + Array(name.utf8))
        guard let combined = box.combined else { preconditionFailure("AES.GCM with the default 12-byte nonce always has a combined form") }
        return header + Array(combined)
    }

    /// The header of a file of `account`'s directory, checked: a version-2 header must name
    /// `account` as the owner.
    static func checkedHeader(_ stored: [UInt8], name: String, account: AccountID) throws -> Header {
        switch header(of: stored) {
        case .failure(let problem):
            throw VaultError(code: .badFormat, account: account.upn, name: name, message: problem.message)
        case .success(let header):
            if let owner = header.owner, owner != account.key {
                throw VaultError(code: .badFormat, account: account.upn, name: name,
                                 message: "the file's owner header names another account (\(owner)) than the directory's owner")
            }
            return header
        }
    }

    /// The plaintext of stored bytes. `key` is asked for only when the file is sealed.
    static func open(_ stored: [UInt8], name: String, account: AccountID, key: () throws -> SymmetricKey) throws -> [UInt8] {
        let header = try checkedHeader(stored, name: name, account: account)
        let payload = stored[header.count...]
        guard header.sealed else { return Array(payload) }
        let sealingKey = try key()
        do {
            let box = try AES.GCM.SealedBox(combined: payload)
            let plaintext = try AES.GCM.open(box, using: sealingKey, authenticating: Array(stored.prefix(header.count)) + Array(name.utf8))
            return Array(plaintext)
        } catch {
            throw VaultError(code: .tampered, account: account.upn, name: name,
                             message: "the encrypted file failed authentication (modified, truncated, or not written under this name and account)")
        }
    }

    /// The key file's bytes for `key`.
    static func keyFile(_ key: SymmetricKey) -> [UInt8] {
        keyMagic + [keyVersion] + key.withUnsafeBytes { Array($0) }
    }

    /// The key in a key file, or nil when the bytes are not a valid key file.
    static func key(fromFile bytes: [UInt8]) -> SymmetricKey? {
        guard bytes.count == keyMagic.count + 1 + 32, Array(bytes.prefix(4)) == keyMagic, bytes[4] == keyVersion else { return nil }
        return SymmetricKey(data: bytes[5...])
    }
}

/// What is wrong with a header, for a person.
struct HeaderProblem: Error, Sendable, Hashable {
    let message: String
    init(_ message: String) { self.message = message }
}
