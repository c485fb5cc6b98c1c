/// A bearer credential (access, refresh or id token) that never shows up in logs.
///
/// `description`, `debugDescription` and the reflection mirror all print a redacted
/// placeholder with the length only; read ``reveal()`` where the raw value is required
/// (an `Authorization` header, the token store).
public struct SecretToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
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
}
