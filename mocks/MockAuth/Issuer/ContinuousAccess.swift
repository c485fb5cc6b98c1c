import Foundation
import JSON

/// Continuous access evaluation at the mock's own resources (userinfo, the MAM service), as
/// Entra's CAE-capable resources do: a token whose client declared the `cp1` capability
/// (`xms_cc`) is refused once its user's sessions were revoked after it was issued, or the user
/// was disabled, with `401` and `WWW-Authenticate: Bearer error="insufficient_claims",
/// claims="…"` (base64 of `{"access_token":{"nbf":{"essential":true,"value":"<revoked at>"}}}`).
/// The client then asks the issuer again with those claims, which signs the user in anew or
/// says why not. A token without `cp1` lives on until it expires, as at Entra.
enum ContinuousAccess {
    /// The `WWW-Authenticate` value for a token that CAE refuses; nil when it passes.
    static func challenge(for claims: JSONValue, user: Fixtures.User, state: MockState) -> String? {
        let capabilities = claims["xms_cc"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard capabilities.contains(where: { $0.lowercased() == "cp1" }) else { return nil }
        let issuedAt = claims["iat"]?.doubleValue ?? 0
        let revokedAt = state.sessionsRevokedAt(upn: user.upn)
        let since: TimeInterval
        if !user.accountEnabled {
            since = state.now().timeIntervalSince1970
        } else if let revokedAt, revokedAt.timeIntervalSince1970.rounded(.down) >= issuedAt {
            // `iat` has whole seconds: a token of the revocation's second counts as before it.
            since = revokedAt.timeIntervalSince1970.rounded(.down)
        } else {
            return nil
        }
        let demand: JSONValue = ["access_token": ["nbf": ["essential": true, "value": .string(String(Int64(since)))]]]
        let encoded = Data(demand.encoded()).base64EncodedString()
        return #"Bearer error="insufficient_claims", error_description="Continuous access evaluation: the user's sessions were revoked or the account was disabled after this token was issued; ask the issuer again with these claims", claims="\#(encoded)""#
    }
}
