/// Milliseconds since 1970-01-01T00:00:00Z. Every time the store keeps is absolute, in this unit.
public typealias EpochMillis = Int64

/// An account, identified case-insensitively by its UPN.
///
/// Two values are equal when their lowercased UPNs are equal; ``upn`` keeps the form the
/// user or server wrote, for display. The store keys rows on ``key``; the vault derives its
/// directory name from it (never the raw UPN).
public struct AccountID: Sendable, Hashable, CustomStringConvertible {
    /// The lowercased UPN: the key of every account-scoped row.
    public let key: String
    /// The UPN as written (display form).
    public let upn: String

    /// - Parameter upn: a user principal name such as `Alice@Contoso.com`.
    public init(_ upn: String) {
        self.upn = upn
        self.key = upn.lowercased()
    }

    /// Restores an account from stored columns, keeping the stored key.
    init(key: String, upn: String) {
        self.key = key
        self.upn = upn
    }

    public static func == (lhs: AccountID, rhs: AccountID) -> Bool { lhs.key == rhs.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    public var description: String { upn }
}
