import JSON

/// What a token endpoint answer means, as decided by ``TokenResponseClassifier``.
///
/// `description` and `debugDescription` never contain a token.
public enum TokenResponse: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, Codable {
    /// Tokens were issued.
    case success(TokenSet)
    /// AADSTS53005 / suberror `protection_policy_required`: remediate with the MAM service.
    case protectionPolicyRequired(ProtectionPolicyRequired)
    /// The user must interact (sign in again, consent, MFA…); may carry a claims challenge.
    case interactionRequired(InteractionRequired)
    /// The refresh token is unusable: drop it, then interaction is required.
    case badRefreshToken(BadRefreshToken)
    /// AADSTS53009: the app does not declare the `protapp` capability and cannot be remediated.
    case capabilityMissing(ServerError)
    /// 5xx or 429: try again later (after `retryAfter` when given).
    case serviceFailure(ServiceFailure)
    /// Any other OAuth error (`invalid_client`, `invalid_scope`, …): the request itself is wrong.
    case requestRejected(ServerError)
    /// Not a token response at all (empty body, HTML page, wrong structure).
    case malformed(MalformedResponse)
    /// Tokens for another person than the account asked for (decided by the composed machine
    /// from the tokens' validated ``TokenSet/identity``; the classifier never answers it).
    case accountMismatch(AccountMismatch)

    public var description: String {
        switch self {
        case .success(let tokens): "success(\(tokens))"
        case .protectionPolicyRequired(let details): "protectionPolicyRequired(\(details))"
        case .interactionRequired(let details): "interactionRequired(\(details))"
        case .badRefreshToken(let details): "badRefreshToken(\(details))"
        case .capabilityMissing(let error): "capabilityMissing(\(error))"
        case .serviceFailure(let failure): "serviceFailure(\(failure))"
        case .requestRejected(let error): "requestRejected(\(error))"
        case .malformed(let malformed): "malformed(\(malformed))"
        case .accountMismatch(let mismatch): "accountMismatch(\(mismatch))"
        }
    }

    public var debugDescription: String { description }
}

/// Tokens from a successful grant. Printing it shows scopes and expiry, never a token.
public struct TokenSet: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, Codable {
    public var accessToken: SecretToken
    public var refreshToken: SecretToken?
    public var idToken: SecretToken?
    /// `token_type` as sent (usually `Bearer`).
    public var tokenType: String
    /// When the access token expires (`receivedAt + expires_in`).
    public var expiresOn: Instant
    /// Granted scopes (`scope` split on spaces); empty when the server did not say.
    public var scopes: [String]
    /// Decoded `client_info`, when the server sent one.
    public var clientInfo: ClientInfo?
    /// Who signed in, from the id_token once the Orchestrator validated it (signature, issuer,
    /// audience, lifetime, nonce); nil when the answer carried no id_token.
    public var identity: TokenIdentity?

    public init(
        accessToken: SecretToken, refreshToken: SecretToken? = nil, idToken: SecretToken? = nil,
        tokenType: String = "Bearer", expiresOn: Instant, scopes: [String] = [], clientInfo: ClientInfo? = nil, identity: TokenIdentity? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.tokenType = tokenType
        self.expiresOn = expiresOn
        self.scopes = scopes
        self.clientInfo = clientInfo
        self.identity = identity
    }

    public var description: String {
        "TokenSet(accessToken: \(accessToken), refreshToken: \(refreshToken.map(\.description) ?? "none"), "
            + "idToken: \(idToken.map(\.description) ?? "none"), expiresOn: \(expiresOn), scopes: \(scopes), "
            + "clientInfo: \(clientInfo.map(\.description) ?? "none"), identity: \(identity.map(\.description) ?? "none"))"
    }

    public var debugDescription: String { description }
}

/// The OAuth error fields of an error response.
public struct ServerError: Sendable, Hashable, CustomStringConvertible, Codable {
    /// HTTP status of the response.
    public var status: Int
    /// `error`, as sent.
    public var error: String
    public var errorDescription: String?
    /// `error_codes` (AADSTS numbers).
    public var errorCodes: [Int64]
    public var suberror: String?
    public var correlationID: String?
    public var traceID: String?
    /// The `claims` challenge JSON text, when present.
    public var claimsChallenge: String?
    /// True when the answer carried no OAuth error (an empty body, or one that is not a JSON
    /// error object): `error` is then named after the HTTP status (400 `invalid_request`,
    /// 401 `invalid_client`, 403 `unauthorized_client`) and `errorDescription` says what came.
    public var derivedFromStatus: Bool

    public init(
        status: Int, error: String, errorDescription: String? = nil, errorCodes: [Int64] = [], suberror: String? = nil,
        correlationID: String? = nil, traceID: String? = nil, claimsChallenge: String? = nil, derivedFromStatus: Bool = false
    ) {
        self.status = status
        self.error = error
        self.errorDescription = errorDescription
        self.errorCodes = errorCodes
        self.suberror = suberror
        self.correlationID = correlationID
        self.traceID = traceID
        self.claimsChallenge = claimsChallenge
        self.derivedFromStatus = derivedFromStatus
    }

    public var description: String {
        if derivedFromStatus { return "HTTP \(status) without an OAuth error\(errorDescription.map { " (\($0))" } ?? "")" }
        var text = "HTTP \(status) \(error)"
        if let suberror { text += "/\(suberror)" }
        if !errorCodes.isEmpty { text += " \(errorCodes.map { "AADSTS\($0)" }.joined(separator: ","))" }
        if let correlationID { text += " correlation \(correlationID)" }
        return text
    }
}

/// The details MSAL surfaces with MSALErrorServerProtectionPoliciesRequired.
public struct ProtectionPolicyRequired: Sendable, Hashable, CustomStringConvertible, Codable {
    /// `adi`: the displayable id (UPN) of the account to remediate.
    public var displayableID: String?
    /// `uid.utid` from the error's `client_info`, when sent.
    public var homeAccountID: HomeAccountID?
    /// The tenant: `utid` when known, otherwise the authority's tenant segment.
    public var tenantID: String?
    /// The authority the request went to, as given to the classifier.
    public var authority: String?
    public var correlationID: String?
    public var serverError: ServerError

    public init(
        displayableID: String? = nil, homeAccountID: HomeAccountID? = nil, tenantID: String? = nil, authority: String? = nil,
        correlationID: String? = nil, serverError: ServerError
    ) {
        self.displayableID = displayableID
        self.homeAccountID = homeAccountID
        self.tenantID = tenantID
        self.authority = authority
        self.correlationID = correlationID
        self.serverError = serverError
    }

    public var description: String {
        "adi: \(displayableID ?? "none"), home: \(homeAccountID?.description ?? "none"), tenant: \(tenantID ?? "none"), \(serverError)"
    }
}

/// Why the user has to interact, from the error's suberror.
public enum InteractionReason: Sendable, Hashable, Codable {
    case basicAction, additionalAction, messageOnly, consentRequired, userPasswordExpired
    /// `error` was `interaction_required` (or `login_required` / `consent_required`) without a known suberror.
    case interactionRequired
    /// `invalid_grant` without a suberror.
    case invalidGrant
    /// A suberror this module does not know, as sent.
    case other(String)
}

/// An error that only the user can resolve.
public struct InteractionRequired: Sendable, Hashable, CustomStringConvertible, Codable {
    public var reason: InteractionReason
    /// The server's claims challenge JSON text; must be merged into the next request.
    public var claimsChallenge: String?
    public var serverError: ServerError

    public init(reason: InteractionReason, claimsChallenge: String? = nil, serverError: ServerError) {
        self.reason = reason
        self.claimsChallenge = claimsChallenge
        self.serverError = serverError
    }

    public var description: String { "\(reason) \(serverError)\(claimsChallenge == nil ? "" : " with claims challenge")" }
}

/// Why the refresh token is dead.
public enum BadRefreshTokenReason: String, Sendable, Hashable, CaseIterable, Codable {
    case badToken = "bad_token"
    case tokenExpired = "token_expired"
    case clientMismatch = "client_mismatch"
    case deviceAuthenticationFailed = "device_authentication_failed"
}

/// The refresh token must be dropped; then interaction is required.
public struct BadRefreshToken: Sendable, Hashable, CustomStringConvertible, Codable {
    public var reason: BadRefreshTokenReason
    public var claimsChallenge: String?
    public var serverError: ServerError
    public var description: String { "\(reason.rawValue) \(serverError)" }
}

/// The service is failing or throttling.
public struct ServiceFailure: Sendable, Hashable, CustomStringConvertible, Codable {
    public var status: Int
    /// From `Retry-After` (delay-seconds form).
    public var retryAfter: TimeSpan?
    /// The OAuth error, when the body carried one.
    public var serverError: ServerError?

    public init(status: Int, retryAfter: TimeSpan? = nil, serverError: ServerError? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.serverError = serverError
    }

    public var description: String {
        "HTTP \(status)\(retryAfter.map { ", retry after \($0.milliseconds / 1000) s" } ?? "")\(serverError.map { ", \($0)" } ?? "")"
    }
}

/// A response that is not a usable token response.
public struct MalformedResponse: Sendable, Hashable, CustomStringConvertible, Codable {
    public var status: Int
    /// What was wrong, naming the HTTP status.
    public var message: String
    /// The JSON parser's report, when the body was not JSON.
    public var parseError: JSONParseError?

    public init(status: Int, message: String, parseError: JSONParseError? = nil) {
        self.status = status
        self.message = message
        self.parseError = parseError
    }

    public var description: String { message }
}

/// The issuer granted fewer scopes than asked (MSAL's declined-scopes error): the scopes it
/// granted (as it listed them) and the requested ones it left out.
public struct DeclinedScopes: Sendable, Hashable, CustomStringConvertible, Codable {
    public var granted: [String]
    public var declined: [String]

    public init(granted: [String], declined: [String]) {
        self.granted = granted
        self.declined = declined
    }

    public var description: String { "granted [\(granted.joined(separator: " "))], declined [\(declined.joined(separator: " "))]" }

    /// Scopes every OpenID Connect issuer may leave out of its answer (MSAL does not count them).
    public static let oidcScopes: Set<String> = ["openid", "profile", "offline_access", "email"]

    /// The requested scopes `granted` leaves out, compared case-insensitively; none when the
    /// issuer listed no scopes (it then granted what was asked, RFC 6749 §5.1) or when a
    /// `.default` scope was asked (the issuer answers with what it stands for).
    ///
    /// An API named by its application ID (`{appId}/Chat.Read`) is the same API as its App ID
    /// URI spelling (`api://contoso-chat/Chat.Read`), which Entra's answer may use instead: when
    /// the request names one resource, the answer one other, and one of the two is an
    /// application ID (a GUID), the scopes compare by name (a token is for one resource).
    public static func declined(requested: [String], granted: [String]) -> [String] {
        guard !granted.isEmpty, !requested.contains(where: { $0 == ".default" || $0.hasSuffix("/.default") }) else { return [] }
        let grantedSet = Set(granted.map { $0.lowercased() })
        let grantedNames = spellsOneResourceTwice(requested: requested, granted: granted)
            ? Set(granted.map { ScopeName($0).name.lowercased() }) : []
        return requested.filter {
            !grantedSet.contains($0.lowercased()) && !oidcScopes.contains($0.lowercased())
                && !grantedNames.contains(ScopeName($0).name.lowercased())
        }
    }

    /// True when the request and the answer each name one resource, not the same spelling, and
    /// one of them is an application ID.
    static func spellsOneResourceTwice(requested: [String], granted: [String]) -> Bool {
        let asked = Set(requested.compactMap { ScopeName($0).resource?.lowercased() })
        let answered = Set(granted.compactMap { ScopeName($0).resource?.lowercased() })
        guard asked.count == 1, answered.count == 1, let one = asked.first, let other = answered.first, one != other else { return false }
        return ScopeName.isApplicationID(one) || ScopeName.isApplicationID(other)
    }
}

/// A scope split at its last `/`: `api://contoso-chat/Chat.Read` is `Chat.Read` of
/// `api://contoso-chat`; `User.Read` has no resource.
struct ScopeName {
    var resource: String?
    var name: String

    init(_ scope: String) {
        if let slash = scope.lastIndex(of: "/") {
            resource = String(scope[..<slash])
            name = String(scope[scope.index(after: slash)...])
        } else {
            resource = nil
            name = scope
        }
    }

    /// True for an application ID: a GUID (8-4-4-4-12 hexadecimal digits).
    static func isApplicationID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
