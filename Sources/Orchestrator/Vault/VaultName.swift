import ComplianceCore
/// The rules for file names in the vault: a name is one plain path component.
enum VaultName {
    static let maxBytes = 255

    /// Throws ``VaultError/Code/invalidName`` naming the broken rule; returns the name unchanged.
    @discardableResult
    static func validate(_ name: String, account: AccountID) throws -> String {
        func reject(_ problem: String) -> VaultError {
            VaultError(code: .invalidName, account: account.upn, name: name, message: problem)
        }
        let bytes = Array(name.utf8)
        if bytes.isEmpty { throw reject("the name is empty") }
        if bytes.contains(0) { throw reject("the name contains a NUL byte") }
        if bytes.contains(UInt8(ascii: "/")) { throw reject("the name contains '/': names are single path components") }
        if name == ".." || name == "." { throw reject("the name is a directory reference ('.' or '..')") }
        if bytes.first == UInt8(ascii: ".") { throw reject("the name starts with '.': such names are reserved for the vault") }
        if bytes.count > maxBytes { throw reject("the name is \(bytes.count) UTF-8 bytes long; at most \(maxBytes) are allowed") }
        return name
    }
}
