/// A bearer credential (access, refresh or id token) that never shows up in logs.
///
/// `description`, `debugDescription` and the reflection mirror all print a redacted
/// placeholder with the length only; read ``reveal()`` where the raw value is required
/// (an `Authorization` header, the token store).
public struct SecretToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, Codable {
    private let value: String

    /// Wraps a raw credential.
    public init(_ value: String) { self.value = value }

    /// The raw credential. Call only where it leaves the process for its intended use.
    public func reveal() -> String { value }

    /// True when the credential is the empty string.
    public var isEmpty: Bool { value.isEmpty }

    public var description: String { "<redacted \(value.utf8.count) bytes>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": value.utf8.count]) }

    /// Encodes the raw credential only for an encoder that says it keeps it in the process
    /// (``CodingUserInfoKey/revealsSecrets``: the explorer's frontier); any other
    /// encoder (a JSON one for a log or a wire) gets an error, not the token.
    public func encode(to encoder: any Encoder) throws {
        guard encoder.userInfo[.revealsSecrets] as? Bool == true else {
            throw EncodingError.invalidValue(
                description, .init(codingPath: encoder.codingPath, debugDescription: "a SecretToken is encoded only where it stays in the process"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }
}

extension CodingUserInfoKey {
    /// Set to `true` by an encoder whose output stays in the process: only then does a
    /// ``SecretToken`` encode its raw value.
    public static let revealsSecrets = CodingUserInfoKey(rawValue: "ComplianceCore.revealsSecrets")!
}
