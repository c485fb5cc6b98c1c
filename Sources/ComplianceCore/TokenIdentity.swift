/// Who a token response says signed in, from its validated id_token.
///
/// The Intune SDK identifies an account by its object identity, not its UPN: on Entra the
/// object id and tenant (`oid`, `tid`: `subject` is `oid.tid`, MSAL's home account id), at any
/// other OpenID Connect issuer the issuer and subject (`subject` is `sub` + " at " + `iss`).
/// The UPN is a handle: the username the id_token claims (`preferred_username`, else `upn`,
/// else `email`) must be the account's.
public struct TokenIdentity: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The object identity; stable for one person at one issuer.
    public var subject: String
    /// The username the id_token claims, if it claims one.
    public var username: String?

    public init(subject: String, username: String?) {
        self.subject = subject
        self.username = username
    }

    /// Why this identity is not `account`'s, or nil when it is: its username names another
    /// account (compared as ``AccountID`` compares), or its subject is not the one `account`
    /// signed in with before (`knownSubject`; nil before the first validated sign-in and after
    /// a wipe).
    public func mismatch(for account: AccountID, knownSubject: String?) -> AccountMismatch? {
        if let username, (try? AccountID(username)) != account {
            return AccountMismatch(account: account, found: username, reason: .username)
        }
        if let knownSubject, knownSubject != subject {
            return AccountMismatch(account: account, found: username ?? account.upn, reason: .subject)
        }
        return nil
    }

    public var description: String { "\(subject) (\(username ?? "no username"))" }
}

/// A token response for another person than the account asked for (MSAL's mismatched user).
public struct AccountMismatch: Sendable, Hashable, CustomStringConvertible, Codable {
    public enum Reason: Sendable, Hashable, Codable {
        /// The id_token's username is another account's.
        case username
        /// The username is the account's, but the person (object identity) is not the one
        /// that signed in under it before: the UPN was given to someone else.
        case subject
    }

    /// The account the request was for.
    public var account: AccountID
    /// The username the issuer signed in.
    public var found: String
    public var reason: Reason

    public init(account: AccountID, found: String, reason: Reason) {
        self.account = account
        self.found = found
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .username: "the issuer signed in \(found), not \(account.upn)"
        case .subject: "the issuer signed in another person under \(account.upn) than the one signed in before (a new object identity)"
        }
    }
}
