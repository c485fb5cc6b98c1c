/// An error from the ``Vault``: what went wrong, for which account and file.
public struct VaultError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Compare with the static constants (`error.code == .tampered`).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case invalidName = "invalid name"
            case notFound = "not found"
            case tampered = "tampered"
            case badFormat = "bad format"
            case keyMissing = "key missing"
            case io = "I/O error"
        }

        fileprivate let base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// The file name is not allowed (slash, `..`, NUL, leading dot, empty, longer than 255 bytes).
        public static let invalidName = Code(.invalidName)
        /// The account has no file of that name.
        public static let notFound = Code(.notFound)
        /// An encrypted file failed authentication: modified, truncated, or moved from another name or account.
        public static let tampered = Code(.tampered)
        /// A file does not start with the vault header, or has an unknown version or mode.
        public static let badFormat = Code(.badFormat)
        /// An encrypted file exists but the account's key file is missing or malformed.
        public static let keyMissing = Code(.keyMissing)
        /// A system call failed (permissions, disk full, …).
        public static let io = Code(.io)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The account's UPN.
    public let account: String?
    /// The file name concerned, when there is one.
    public let name: String?
    /// What happened, for a person to act on.
    public let message: String

    public init(code: Code, account: String?, name: String? = nil, message: String) {
        self.code = code
        self.account = account
        self.name = name
        self.message = message
    }

    public var description: String {
        var text = "vault error (\(code))"
        if let account { text += " for account \(account)" }
        if let name { text += ", file \(String(reflecting: name))" }
        return text + ": " + message
    }
}
