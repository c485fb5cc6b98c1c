/// How data of one owner is protected at rest: what `IntuneMAMDataProtectionManager`'s
/// `protect:identity:` does with a buffer, and how the vault stores a file (DataProtection/README.md).
/// Both forms carry a header naming the owner; only ``encrypted`` hides the content.
public enum ProtectionMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The owner header, then the content encrypted under the owner's key.
    case encrypted
    /// The owner header, then the content in the clear (the guide: "a header will be added to
    /// the data that's encoding the identity, but the data won't be encrypted").
    case identityHeader
}

extension DataProtectionPolicy {
    /// `protect:identity:` for this policy's owner: encrypted when the identity is the managed
    /// account ("If the user is managed, the data will be encrypted"), whatever
    /// `fileEncryptionRequired` says; the identity header alone for an unmanaged identity and
    /// for none (`nil` or empty: no user).
    public var bufferProtection: ProtectionMode { isManaged ? .encrypted : .identityHeader }

    /// How a file this policy's owner writes now is stored: encrypted when
    /// ``isFileEncryptionRequired``, with the owner header alone otherwise.
    public var fileProtection: ProtectionMode { isFileEncryptionRequired ? .encrypted : .identityHeader }

    /// Re-protection after a policy change: which of the owner's stored files (name → how each
    /// is stored now) must be rewritten encrypted, sorted by name. When encryption is required,
    /// every file stored in the clear; when it is not, none: a file already encrypted stays
    /// encrypted until it is rewritten (the SDK does not decrypt files when the requirement is
    /// lifted), and a new file is written plain.
    public func filesToEncrypt(_ files: [String: ProtectionMode]) -> [String] {
        guard isFileEncryptionRequired else { return [] }
        return files.filter { $0.value == .identityHeader }.keys.sorted()
    }
}
