import Foundation

/// What a token request is asking for after scope validation.
public struct ScopeRequest: Sendable, Hashable {
    /// The resource the access token is for (its `aud`); `nil` for OIDC-only requests.
    public var resource: String?
    /// Resource scopes as granted, short form (`Chat.Read`, `.default`).
    public var resourceScopes: [String]
    /// `openid`, `profile`, `offline_access`, `email` as requested.
    public var oidcScopes: Set<String>
    /// True when the resource is the MAM service (never behind app-protection CA).
    public var isMAMService: Bool
    /// The resource's scopes a `.default` request stands for (the access token's `scp`).
    public var defaultScopes: [String] = []
    /// Requested scopes the tenant declines (the API's `declinedScopes`): not granted.
    public var declinedScopes: [String] = []
    /// Requested scopes that need the user's consent for the app (the API's `consentRequiredScopes`).
    public var consentScopes: [String] = []
    /// The access token's `aud`: the API's application ID (``Fixtures/ProtectedAPI/audience``).
    public var audience: String? = nil
    /// True for Microsoft Graph: the answer's `scope` names its scopes without the resource
    /// (`User.Read`), as Entra's answers do.
    public var shortScopeNames = false
    /// The API's optional access-token claims (``Fixtures/ProtectedAPI/optionalClaims``).
    public var optionalClaims: [String] = []

    /// The access token's `scp`: requested scopes, `.default` expanded.
    public var grantedScopes: [String] {
        resourceScopes == [".default"] && !defaultScopes.isEmpty ? defaultScopes : resourceScopes
    }

    /// The space-separated `scope` of a token response.
    public var responseScope: String {
        let full = resourceScopes.map { scope in
            shortScopeNames && scope != ".default" ? scope : resource.map { "\($0)/\(scope)" } ?? scope
        }
        let oidc = ["openid", "profile", "email", "offline_access"].filter { oidcScopes.contains($0) }
        return (full + oidc).joined(separator: " ")
    }
}

/// An issued authorization code, redeemable once before `expiresAt`.
struct AuthorizationCodeGrant: Sendable {
    var clientId: String
    var redirectURI: String
    var upn: String
    var scopes: ScopeRequest
    var nonce: String?
    var codeChallenge: String?
    var codeChallengeMethod: String?
    var capabilities: [String]
    /// When the person entered their password, kept when the authorize request sent `max_age`:
    /// the id token's `auth_time` (OIDC Core §3.1.2.1).
    var authTime: Date? = nil
    /// Set by an admin revocation of the user's sessions after the code was issued.
    var revoked = false
    var expiresAt: Date
    var redeemed: Bool
}

/// An issued refresh token (opaque), bound to a user and client.
struct RefreshTokenGrant: Sendable {
    var clientId: String
    var upn: String
    /// The scopes of the request that issued it: the default for a refresh without `scope`.
    var scopes: ScopeRequest
    var expiresAt: Date
    /// Set by `POST /_admin/users/{upn}/revoke-refresh-tokens`.
    var revoked = false
    /// Issued to a cross-origin (browser) request: redeemed only cross-origin, lives 24 hours.
    var isSPA = false
}

/// A pending device-code sign-in.
struct DeviceCodeGrant: Sendable {
    var clientId: String
    var userCode: String
    var scopes: ScopeRequest
    var capabilities: [String]
    var expiresAt: Date
    /// Set when someone signs in at the verification page or the admin API approves it.
    var approvedUPN: String?
    var denied: Bool
    var redeemed: Bool
    /// Seconds a client must leave between polls; grows by 5 with each `slow_down`.
    var interval: Int = 5
    /// When the client last polled (mock clock).
    var lastPoll: Date? = nil
}
