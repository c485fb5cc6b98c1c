import Foundation

/// A client assertion's `jti`, remembered until the assertion expires.
struct AssertionUse: Sendable {
    /// SHA-256 of the whole assertion: the same assertion again is not a new use of its `jti`.
    var digest: [UInt8]
    var expiresAt: Date
}

extension MockState {
    /// Notes that `clientId` presented an assertion with `jti` (its SHA-256 `digest`, valid until
    /// `expiresAt`); false when another assertion of the client already carried that `jti`.
    ///
    /// The same assertion presented again while it is valid is not refused: MSAL (Python, .NET)
    /// keeps its signed assertion for most of its lifetime and sends it with every request.
    func noteAssertion(clientId: String, jti: String, digest: [UInt8], expiresAt: Date) -> Bool {
        locked { state in
            let now = state.now()
            state.assertionIds = state.assertionIds.filter { $0.value.expiresAt > now }
            let key = "\(clientId)|\(jti)"
            if let seen = state.assertionIds[key] { return seen.digest == digest }
            state.assertionIds[key] = AssertionUse(digest: digest, expiresAt: expiresAt)
            return true
        }
    }
}
