import ComplianceCore
import Crypto

/// The format of buffers `protect` returns (`IntuneMAMDataProtectionManager`):
///
/// `"CPRT"`, a version byte (2), a mode byte (0: identity header only, 1: encrypted), the
/// owner's length (2 bytes, big-endian, 0 to 1024; 0 is "no user" and only with mode 0), the
/// owner (the account's normalised UPN, ``AccountID/key``, UTF-8), with mode 1 the key id (8
/// bytes: ``keyID(_:)`` of the key the data is sealed under), then the payload: the plain
/// bytes (mode 0), or an AES-256-GCM sealed box, combined (12-byte nonce, ciphertext, 16-byte
/// tag) under the owner's vault key with the whole header as associated data (mode 1).
/// Version 1 (no key id) is still read. The key id tells a buffer whose key is gone (its
/// owner was wiped, perhaps signing in again since with a new key) from one whose owner
/// header was changed (its key id is another account's key on this device).
/// Bytes that do not start with `"CPRT"` are not protected data: `unprotect` returns them
/// unchanged and `protectionInfo` answers "not protected", as the SDK's header says.
enum ProtectedFormat {
    static let magic: [UInt8] = Array("CPRT".utf8)
    /// The version written; ``legacyVersion`` (no key id) is read too.
    static let version: UInt8 = 2
    static let legacyVersion: UInt8 = 1
    static let fixedCount = 8
    static let keyIDCount = 8

    /// What a protected buffer's header says.
    struct Header: Sendable, Hashable {
        /// The owner's key; nil: no user.
        var owner: String?
        var sealed: Bool
        /// The id of the key sealed data was made under (version 2); nil: plain, or version 1.
        var keyID: [UInt8]?
        /// Where the payload starts.
        var count: Int
    }

    /// A key's id: the first 8 bytes of SHA-256 over a label and the key. Names the key
    /// without revealing it.
    static func keyID(_ key: SymmetricKey) -> [UInt8] {
        let digest = key.withUnsafeBytes { bytes in SHA256.hash(data: Array("CPRT key id".utf8) + Array(bytes)) }
        return Array(digest.prefix(keyIDCount))
    }

    /// Whether `data` claims to be protected data (starts with the magic).
    static func isProtected(_ data: [UInt8]) -> Bool {
        data.count >= magic.count && Array(data.prefix(magic.count)) == magic
    }

    /// The protected form of `data` for `owner` (nil: no user), sealed under `key` when given.
    static func protect(_ data: [UInt8], owner: AccountID?, key: SymmetricKey?) throws -> [UInt8] {
        precondition(key == nil || owner != nil, "only an owner's data is encrypted")
        let ownerBytes = owner.map { Array($0.key.utf8) } ?? []
        precondition(ownerBytes.count <= VaultFormat.maxOwnerBytes, "an AccountID key is at most \(VaultFormat.maxOwnerBytes) bytes")
        let header = magic + [version, key == nil ? 0 : 1, UInt8(ownerBytes.count >> 8), UInt8(ownerBytes.count & 0xFF)] + ownerBytes
            + (key.map(keyID) ?? [])
        guard let key else { return header + data }
        let box = try AES.GCM.seal(data, using: key, authenticating: header)
        guard let combined = box.combined else { preconditionFailure("AES.GCM with the default 12-byte nonce always has a combined form") }
        return header + Array(combined)
    }

    /// The header of protected data (which must start with the magic), or what is wrong with it.
    static func header(of data: [UInt8]) -> Result<Header, HeaderProblem> {
        guard isProtected(data), data.count >= fixedCount - 2 else {
            return .failure(HeaderProblem("the data is cut short inside its protection header (\(data.count) bytes)"))
        }
        let readVersion = data[4]
        guard readVersion == version || readVersion == legacyVersion else {
            return .failure(HeaderProblem("unknown protected-data version \(readVersion) (this daemon reads versions \(legacyVersion) and \(version))"))
        }
        let mode = data[5]
        guard mode == 0 || mode == 1 else { return .failure(HeaderProblem("unknown protection mode \(mode) (0: identity header, 1: encrypted)")) }
        return owner(in: data, at: 6, allowEmpty: mode == 0).flatMap { owner, end in
            guard mode == 1, readVersion == version else { return .success(Header(owner: owner, sealed: mode == 1, keyID: nil, count: end)) }
            guard data.count >= end + keyIDCount else { return .failure(HeaderProblem("the header is cut short inside its key id")) }
            return .success(Header(owner: owner, sealed: true, keyID: Array(data[end..<end + keyIDCount]), count: end + keyIDCount))
        }
    }

    /// The payload of sealed data under `key`.
    static func open(_ data: [UInt8], header: Header, key: SymmetricKey) -> [UInt8]? {
        guard let box = try? AES.GCM.SealedBox(combined: data[header.count...]),
              let plain = try? AES.GCM.open(box, using: key, authenticating: Array(data.prefix(header.count)))
        else { return nil }
        return Array(plain)
    }

    /// The owner field at `offset` (2-byte length, then the UTF-8 key) and where it ends.
    /// The owner must be a valid account in its normalised form; empty (nil) only when allowed.
    static func owner(in data: [UInt8], at offset: Int, allowEmpty: Bool) -> Result<(String?, Int), HeaderProblem> {
        guard data.count >= offset + 2 else { return .failure(HeaderProblem("the header is cut short before the owner's length")) }
        let length = Int(data[offset]) << 8 | Int(data[offset + 1])
        let start = offset + 2
        if length == 0 {
            return allowEmpty ? .success((nil, start)) : .failure(HeaderProblem("the owner header is empty (no owner)"))
        }
        guard length <= VaultFormat.maxOwnerBytes else {
            return .failure(HeaderProblem("the owner header claims \(length) bytes; at most \(VaultFormat.maxOwnerBytes) are allowed"))
        }
        guard data.count >= start + length else {
            return .failure(HeaderProblem("the owner header claims \(length) bytes but only \(data.count - start) follow"))
        }
        guard let text = String(validating: data[start..<start + length], as: UTF8.self) else {
            return .failure(HeaderProblem("the owner header is not UTF-8"))
        }
        // Byte for byte: Swift's == holds canonically equivalent strings equal, so an NFD
        // spelling would pass for the NFC key.
        guard let account = try? AccountID(text), account.key.utf8.elementsEqual(text.utf8) else {
            return .failure(HeaderProblem("the owner header is not an account in its normalised form"))
        }
        return .success((text, start + length))
    }
}
