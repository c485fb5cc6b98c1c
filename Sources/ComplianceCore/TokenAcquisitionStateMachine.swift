/// One token request for one account: silent cache → refresh grant → interactive when allowed.
/// A request that carries credentials (``Request/prompt``, MSAL's `acquireTokenInteractive`)
/// goes to the issuer's sign-in at once: never answered from the cache, so a wrong password
/// fails whatever is cached, and its failure leaves the cache as it was.
///
/// A cached access token is used only if it expires more than 5 minutes after `now`
/// and no claims challenge is pending (a claims challenge always skips the cache).
/// Every grant carries the `claims` parameter built from the app's capabilities and
/// the challenge (``ClaimsRequest``).
///
/// A refresh grant refused because the refresh token is dead (`invalid_grant`, a bad-token
/// suberror, or a 400/401 without an OAuth error) drops the refresh token and falls through to
/// the sign-in page when interaction is allowed (InteractionRequired otherwise). Tokens that
/// grant fewer scopes than asked fail the request (``DeclinedScopes``): they are kept only
/// under the scopes granted, never under the request's.
public struct TokenAcquisitionStateMachine: Sendable, Hashable, Codable {
    /// Cached access tokens expiring within this window are not used.
    public static let expirySkew = TimeSpan.minutes(5)

    /// What the caller wants.
    public struct Request: Sendable, Hashable, Codable {
        public var account: AccountID
        public var scopes: [String]
        /// The app's client capabilities (`["protapp"]`).
        public var capabilities: [String]
        /// A claims challenge from an earlier response or a resource (skips the cache).
        public var claimsChallenge: String?
        /// Whether an interactive sign-in may be started.
        public var allowInteraction: Bool
        /// The caller carries credentials (a password, a browser, a device code): the sign-in
        /// goes to the issuer at once, skipping the cache and the refresh token. Only with
        /// ``allowInteraction``.
        public var prompt: Bool

        /// A request; `capabilities` defaults to `["protapp"]`.
        public init(
            account: AccountID, scopes: [String], capabilities: [String] = [ComplianceCore.protectionCapability], claimsChallenge: String? = nil,
            allowInteraction: Bool, prompt: Bool = false
        ) {
            self.account = account
            self.scopes = scopes
            self.capabilities = capabilities
            self.claimsChallenge = claimsChallenge
            self.allowInteraction = allowInteraction
            self.prompt = prompt && allowInteraction
        }
    }

    /// What the token store holds for the account and scopes.
    public struct CacheEntry: Sendable, Hashable, Codable {
        /// The stored access token for these scopes (with its expiry), if any.
        public var accessToken: TokenSet?
        /// The account's stored refresh token, if any: a refresh grant carries the one this
        /// read found, so the grant never depends on a second read.
        public var refreshToken: SecretToken?

        public init(accessToken: TokenSet?, refreshToken: SecretToken?) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }

        /// Whether a refresh token is stored for the account.
        public var hasRefreshToken: Bool { refreshToken != nil }

        /// Nothing stored.
        public static let empty = CacheEntry(accessToken: nil, refreshToken: nil)
    }

    /// The grant to send.
    public enum Grant: Sendable, Hashable, Codable {
        /// `grant_type=refresh_token` with the refresh token the cache read found.
        case refreshToken(SecretToken)
        /// Authorization code + PKCE through the authorize endpoint (user interaction).
        case interactive

        /// The grant's name in metrics and traces (never the token).
        public var name: String {
            switch self {
            case .refreshToken: "refreshToken"
            case .interactive: "interactive"
            }
        }

        /// Whether this is the sign-in page's grant.
        public var isInteractive: Bool {
            if case .interactive = self { return true }
            return false
        }
    }

    /// Commands for the composed machine (``ComplianceMachine``), which runs this one.
    public enum Action: Sendable, Hashable, Codable {
        /// Look up the store; answer with ``cacheRead(_:now:)``, or ``storeFailed(_:)`` when
        /// the store cannot be read.
        case readCache(AccountID, scopes: [String])
        /// Send a grant with this `claims` parameter (nil: none); answer with
        /// `tokenResponseReceived`, `transportFailed` or (interactive) `userCancelled`.
        case requestToken(Grant, AccountID, scopes: [String], claims: String?)
        /// Delete the account's refresh token; answer with ``refreshTokenRemoved()``, or
        /// ``storeFailed(_:)`` when the store refused.
        case removeRefreshToken(AccountID)
        /// Hand the tokens to the caller; `store` says whether they are new and must be saved first.
        case deliverTokens(TokenSet, store: Bool)
        /// The issuer declined some of the scopes: save the tokens under `scopes` (the part of
        /// the request it granted; none: the refresh token only), then fail with `failure`.
        case keepGranted(TokenSet, scopes: [String], failure: TokenAcquisitionFailure)
        /// The request failed.
        case fail(TokenAcquisitionFailure)
        case none
    }

    fileprivate enum State: Sendable, Hashable, Codable {
        /// Created. Valid transitions:
        ///  - `.readingCache` on `start`
        ///  - `.interactive` on `start` (the caller carries credentials: ``Request/prompt``)
        case initialized
        /// Waiting for the store. Valid transitions:
        ///  - `.finished` on `cacheRead` (a fresh access token, no claims challenge)
        ///  - `.refreshing` on `cacheRead` (a refresh token)
        ///  - `.interactive` on `cacheRead` (nothing usable, interaction allowed)
        ///  - `.failed` on `cacheRead` (nothing usable), `storeFailed` or `accountRemoved`
        case readingCache
        /// A refresh grant is in flight. Valid transitions:
        ///  - `.finished` on `tokenResponseReceived(.success)` granting every scope
        ///  - `.droppingRefreshToken` on `tokenResponseReceived` saying the refresh token is dead
        ///    (`.badRefreshToken`, `invalid_grant`, a 400/401 without an OAuth error)
        ///  - `.interactive` on `tokenResponseReceived(.interactionRequired)` when allowed
        ///  - `.failed` on declined scopes, any other response, `transportFailed` or `accountRemoved`
        case refreshing(claims: String?)
        /// The dead refresh token is being deleted. Valid transitions:
        ///  - `.interactive` on `refreshTokenRemoved` or `storeFailed` when allowed
        ///  - `.failed` on `refreshTokenRemoved` or `storeFailed` otherwise, or `accountRemoved`
        case droppingRefreshToken(InteractionRequired)
        /// The user is signing in. Valid transitions:
        ///  - `.finished` on `tokenResponseReceived(.success)` granting every scope
        ///  - `.failed` on declined scopes, any other response, `transportFailed`, `userCancelled`,
        ///    `issuerMisconfigured` or `accountRemoved`
        case interactive(claims: String?)
        /// Tokens delivered (terminal; late events are ignored).
        case finished
        /// Failure delivered (terminal; late events are ignored).
        case failed(TokenAcquisitionFailure)
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("initialized", "readingCache", "start"),
        .init("initialized", "interactive", "start"),
        .init("readingCache", "finished", "cacheRead"),
        .init("readingCache", "refreshing", "cacheRead"),
        .init("readingCache", "interactive", "cacheRead"),
        .init("readingCache", "failed", "cacheRead / storeFailed / accountRemoved"),
        .init("refreshing", "finished", "tokenResponseReceived"),
        .init("refreshing", "droppingRefreshToken", "tokenResponseReceived"),
        .init("refreshing", "interactive", "tokenResponseReceived"),
        .init("refreshing", "failed", "tokenResponseReceived / transportFailed / accountRemoved"),
        .init("droppingRefreshToken", "interactive", "refreshTokenRemoved / storeFailed"),
        .init("droppingRefreshToken", "failed", "refreshTokenRemoved / storeFailed / accountRemoved"),
        .init("interactive", "finished", "tokenResponseReceived"),
        .init("interactive", "failed", "tokenResponseReceived / transportFailed / userCancelled / issuerMisconfigured / accountRemoved"),
    ]

    /// The request this machine serves.
    public let request: Request
    private var state: State

    /// A machine for `request`; call ``start()`` next.
    public init(request: Request) {
        self.request = request
        self.state = .initialized
    }

    public var stateName: String {
        switch state {
        case .initialized: "initialized"
        case .readingCache: "readingCache"
        case .refreshing: "refreshing"
        case .droppingRefreshToken: "droppingRefreshToken"
        case .interactive: "interactive"
        case .finished: "finished"
        case .failed: "failed"
        }
    }

    // MARK: - Events

    /// Begin: read the cache.
    public mutating func start() -> Action {
        guard case .initialized = state else { preconditionFailure("start() called twice. Invalid state: \(state)") }
        if request.prompt { return send(.interactive, challenge: request.claimsChallenge) }
        state = .readingCache
        return .readCache(request.account, scopes: request.scopes)
    }

    /// Whether a cached access token may be handed out at `now`: it lives at least
    /// ``expirySkew`` longer (MSAL's refresh margin).
    public static func isFresh(_ tokens: TokenSet, at now: Instant) -> Bool {
        tokens.expiresOn > now.advanced(by: expirySkew)
    }

    /// The store answered.
    public mutating func cacheRead(_ entry: CacheEntry, now: Instant) -> Action {
        switch state {
        case .readingCache:
            if request.claimsChallenge == nil, let cached = entry.accessToken, Self.isFresh(cached, at: now) {
                state = .finished
                return .deliverTokens(cached, store: false)
            }
            if let refreshToken = entry.refreshToken {
                return send(.refreshToken(refreshToken), challenge: request.claimsChallenge)
            }
            return interactiveOrFail(challenge: request.claimsChallenge, failure: .interactionRequired(nil))
        case .finished, .failed:
            return .none
        case .initialized, .refreshing, .droppingRefreshToken, .interactive:
            preconditionFailure("cacheRead() without a cache read pending. Invalid state: \(state)")
        }
    }

    /// A store step failed (`reason` says why).
    /// - The cache read: the request fails without sending anything, as MSAL fails a silent
    ///   request whose keychain read fails. An unreadable cache is neither a miss (that would
    ///   send the person to the sign-in page for a storage problem) nor a refresh (there is no
    ///   token to present).
    /// - The removal of a dead refresh token: as ``refreshTokenRemoved()``; a refresh token that
    ///   cannot be deleted is not used again either.
    public mutating func storeFailed(_ reason: String) -> Action {
        switch state {
        case .readingCache:
            return fail(.tokenCacheUnreadable(reason))
        case .droppingRefreshToken:
            return refreshTokenRemoved()
        case .finished, .failed:
            return .none
        case .initialized, .refreshing, .interactive:
            preconditionFailure("storeFailed() without a store step pending. Invalid state: \(state)")
        }
    }

    /// The token endpoint answered (classified by ``TokenResponseClassifier``).
    public mutating func tokenResponseReceived(_ response: TokenResponse) -> Action {
        switch state {
        case .refreshing:
            switch response {
            case .success(let tokens):
                return deliver(tokens)
            case .badRefreshToken(let details):
                return dropRefreshToken(InteractionRequired(
                    reason: .other(details.reason.rawValue), claimsChallenge: details.claimsChallenge ?? request.claimsChallenge,
                    serverError: details.serverError))
            case .interactionRequired(let details) where Self.meansDeadRefreshToken(details):
                var details = details
                details.claimsChallenge = details.claimsChallenge ?? request.claimsChallenge
                return dropRefreshToken(details)
            case .interactionRequired(let details):
                return interactiveOrFail(challenge: details.claimsChallenge ?? request.claimsChallenge, failure: .interactionRequired(details))
            case .requestRejected(let error) where error.derivedFromStatus && (error.status == 400 || error.status == 401):
                // Refused without saying why: the refresh token is the likeliest culprit, and a
                // sign-in gets a new one (or shows what is really wrong).
                return dropRefreshToken(InteractionRequired(reason: .invalidGrant, claimsChallenge: request.claimsChallenge, serverError: error))
            default:
                return fail(Self.failure(for: response))
            }
        case .interactive:
            if case .success(let tokens) = response {
                return deliver(tokens)
            }
            return fail(Self.failure(for: response))
        case .finished, .failed:
            return .none
        case .initialized, .readingCache, .droppingRefreshToken:
            preconditionFailure("tokenResponseReceived() without a request in flight. Invalid state: \(state)")
        }
    }

    /// The request got no answer (connection refused, reset, timeout).
    public mutating func transportFailed(_ reason: String) -> Action {
        switch state {
        case .refreshing, .interactive:
            return fail(.networkFailure(reason))
        case .finished, .failed:
            return .none
        case .initialized, .readingCache, .droppingRefreshToken:
            preconditionFailure("transportFailed() without a request in flight. Invalid state: \(state)")
        }
    }

    /// The user closed the sign-in.
    public mutating func userCancelled() -> Action {
        switch state {
        case .interactive:
            return fail(.userCancelled)
        case .finished, .failed:
            return .none
        default:
            preconditionFailure("userCancelled() without an interactive sign-in. Invalid state: \(state)")
        }
    }

    /// The issuer's sign-in cannot work as configured (its authorize endpoint refused, showed
    /// no sign-in form, or redirected back with a configuration error); `answer` quotes it.
    public mutating func issuerMisconfigured(_ answer: String) -> Action {
        switch state {
        case .interactive:
            return fail(.issuerConfiguration(answer))
        case .finished, .failed:
            return .none
        default:
            preconditionFailure("issuerMisconfigured() without an interactive sign-in. Invalid state: \(state)")
        }
    }

    /// The refresh token from ``Action/removeRefreshToken(_:)`` is deleted.
    public mutating func refreshTokenRemoved() -> Action {
        switch state {
        case .droppingRefreshToken(let details):
            return interactiveOrFail(challenge: details.claimsChallenge, failure: .interactionRequired(details))
        case .finished, .failed:
            return .none
        default:
            preconditionFailure("refreshTokenRemoved() without a removal pending. Invalid state: \(state)")
        }
    }

    /// The account was wiped or left the allowed list: nothing may be delivered to it.
    public mutating func accountRemoved() -> Action {
        switch state {
        case .finished, .failed:
            return .none
        case .initialized, .readingCache, .refreshing, .droppingRefreshToken, .interactive:
            return fail(.accountRemoved)
        }
    }

    // MARK: - Internals

    private mutating func send(_ grant: Grant, challenge: String?) -> Action {
        let claims: String?
        do {
            claims = try ClaimsRequest.parameter(capabilities: request.capabilities, challenge: challenge)
        } catch {
            return fail(.invalidClaimsChallenge(error))
        }
        state = grant.isInteractive ? .interactive(claims: claims) : .refreshing(claims: claims)
        return .requestToken(grant, request.account, scopes: request.scopes, claims: claims)
    }

    /// Tokens for the request: delivered when they grant every scope asked; otherwise kept
    /// under the granted part only, and the request fails with the declined scopes.
    private mutating func deliver(_ tokens: TokenSet) -> Action {
        let declined = DeclinedScopes.declined(requested: request.scopes, granted: tokens.scopes)
        guard declined.isEmpty else {
            let failure = TokenAcquisitionFailure.declinedScopes(DeclinedScopes(granted: tokens.scopes, declined: declined))
            state = .failed(failure)
            let refused = Set(declined.map { $0.lowercased() })
            return .keepGranted(tokens, scopes: request.scopes.filter { !refused.contains($0.lowercased()) }, failure: failure)
        }
        state = .finished
        return .deliverTokens(tokens, store: true)
    }

    private mutating func dropRefreshToken(_ details: InteractionRequired) -> Action {
        state = .droppingRefreshToken(details)
        return .removeRefreshToken(request.account)
    }

    /// `invalid_grant` on a refresh grant, unless its suberror asks for an action in the
    /// sign-in page (MFA, consent, an expired password): the refresh token itself is refused.
    private static func meansDeadRefreshToken(_ details: InteractionRequired) -> Bool {
        guard details.serverError.error.lowercased() == "invalid_grant" else { return false }
        switch details.reason {
        case .invalidGrant, .other: return true
        case .basicAction, .additionalAction, .messageOnly, .consentRequired, .userPasswordExpired, .interactionRequired: return false
        }
    }

    private mutating func interactiveOrFail(challenge: String?, failure: TokenAcquisitionFailure) -> Action {
        guard request.allowInteraction else { return fail(failure) }
        return send(.interactive, challenge: challenge)
    }

    private mutating func fail(_ failure: TokenAcquisitionFailure) -> Action {
        state = .failed(failure)
        return .fail(failure)
    }

    private static func failure(for response: TokenResponse) -> TokenAcquisitionFailure {
        switch response {
        case .success: preconditionFailure("a success is not a failure")
        case .protectionPolicyRequired(let details): .protectionPolicyRequired(details)
        case .interactionRequired(let details): .interactionRequired(details)
        case .badRefreshToken(let details):
            .interactionRequired(InteractionRequired(reason: .other(details.reason.rawValue), claimsChallenge: details.claimsChallenge, serverError: details.serverError))
        case .capabilityMissing(let error): .capabilityMissing(error)
        case .serviceFailure(let failure): .serviceFailure(failure)
        case .requestRejected(let error): .requestRejected(error)
        case .malformed(let malformed): .malformedResponse(malformed)
        case .accountMismatch(let mismatch): .accountMismatch(mismatch)
        }
    }
}
