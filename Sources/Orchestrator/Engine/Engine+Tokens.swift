import ComplianceCore
import HTTPClient
import JSON

/// Token requests: a ``TokenAcquisitionStateMachine`` per request (not persisted), driven
/// against the token cache in the store and the issuer.
extension Engine {
    /// Runs one token request to its end. Storing the tokens creates the account's row when
    /// it has none.
    func runTokenRequest(_ request: TokenAcquisitionStateMachine.Request, user: InteractiveUser?) async -> Result<TokenSet, TokenAcquisitionFailure> {
        guard mayReceiveToken(request.account) else { return .failure(.accountRemoved) }
        var machine = TokenAcquisitionStateMachine(request: request)
        var action = machine.start()
        while true {
            logger.trace("token request action", metadata: ["account.id": "\(request.account)", "machine.action": "\(action)"])
            switch action {
            case .readCache(let account, let scopes):
                action = machine.cacheRead(await cacheEntry(account, scopes: scopes), now: clock.now)
            case .requestToken(let grant, let account, let scopes, let claims):
                switch await send(grant, account: account, scopes: scopes, claims: claims, user: user) {
                case .response(let response): action = machine.tokenResponseReceived(response)
                case .transportFailed(let reason): action = machine.transportFailed(reason)
                case .cancelled: action = machine.userCancelled()
                }
            case .removeRefreshToken(let account):
                do {
                    try await store.deleteRefreshToken(for: account, clientID: configuration.clientID)
                } catch {
                    logger.error("cannot drop the refresh token", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
                }
                action = machine.refreshTokenRemoved()
            case .deliverTokens(let tokens, let shouldStore):
                guard mayReceiveToken(request.account) else { return .failure(.accountRemoved) }
                if shouldStore { await save(tokens, for: request) }
                return .success(tokens)
            case .fail(let failure):
                return .failure(failure)
            case .none:
                return .failure(.accountRemoved)
            }
        }
    }

    /// False while the account is being wiped or removed from the allowed list.
    func mayReceiveToken(_ account: AccountID) -> Bool {
        allowedAccounts.mayReceiveToken(account) && !wipesRunning.contains(account)
    }

    /// A request for `scopes` with the app's capabilities.
    func tokenRequest(_ account: AccountID, scopes: [String], allowInteraction: Bool) -> TokenAcquisitionStateMachine.Request {
        .init(account: account, scopes: scopes, capabilities: configuration.capabilities, allowInteraction: allowInteraction)
    }

    private func cacheEntry(_ account: AccountID, scopes: [String]) async -> TokenAcquisitionStateMachine.CacheEntry {
        let cached: CachedTokens?
        do {
            // On the actor's thread, like the engine's other store calls: no hop to a reader queue and back.
            let clientID = configuration.clientID
            cached = try store.readSync { try $0.tokens(for: account, clientID: clientID, scopes: ScopeSet(scopes)) }
        } catch {
            logger.error("cannot read the token cache", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .empty
        }
        guard let cached else { return .empty }
        var accessToken: TokenSet?
        if let token = cached.accessToken, let expiresAt = cached.expiresAt {
            accessToken = TokenSet(
                accessToken: SecretToken(token), idToken: cached.idToken.map(SecretToken.init),
                expiresOn: Instant(millisecondsSinceEpoch: expiresAt), scopes: scopes)
        }
        return .init(accessToken: accessToken, hasRefreshToken: cached.refreshToken != nil)
    }

    private func save(_ tokens: TokenSet, for request: TokenAcquisitionStateMachine.Request) async {
        let cached = CachedTokens(
            account: request.account, clientID: configuration.clientID, scopes: ScopeSet(request.scopes),
            accessToken: tokens.accessToken.reveal(), expiresAt: tokens.expiresOn.millisecondsSinceEpoch,
            idToken: tokens.idToken?.reveal(), refreshToken: tokens.refreshToken?.reveal())
        let home = tokens.clientInfo?.homeAccountID?.description
        do {
            try await store.write { transaction in
                let existing = try transaction.account(request.account)
                try transaction.upsertAccount(
                    request.account, homeAccountID: home, signedIn: existing?.signedIn ?? false, managed: existing?.managed ?? false)
                try transaction.saveTokens(cached)
            }
        } catch {
            logger.error("cannot cache tokens", metadata: ["account.id": "\(request.account)", "error.message": "\(error)"])
        }
    }

    enum GrantResult {
        case response(TokenResponse)
        case transportFailed(String)
        case cancelled
    }

    /// Sends one grant. The reserved scopes (`openid profile offline_access`) go with every
    /// grant, as MSAL sends them; the cache keys on the request's own scopes.
    private func send(
        _ grant: TokenAcquisitionStateMachine.Grant, account: AccountID, scopes: [String], claims: String?, user: InteractiveUser?
    ) async -> GrantResult {
        if let hold = throttle.hold(.issuer, now: clock.now) {
            // The issuer asked to wait (Retry-After): fail without sending, as MSAL does.
            return .response(.serviceFailure(ServiceFailure(status: hold.status, retryAfter: hold.remaining)))
        }
        let response = await sendUnthrottled(grant, account: account, scopes: scopes, claims: claims, user: user)
        if case .response(.serviceFailure(let failure)) = response {
            throttle.failed(.issuer, status: failure.status, retryAfter: failure.retryAfter, now: clock.now)
        }
        return response
    }

    private func sendUnthrottled(
        _ grant: TokenAcquisitionStateMachine.Grant, account: AccountID, scopes: [String], claims: String?, user: InteractiveUser?
    ) async -> GrantResult {
        let wireScopes = scopes + configuration.reservedScopes.filter { !scopes.contains($0) }
        do throws(IssuerError) {
            let reply: TokenEndpointReply
            switch grant {
            case .refreshToken:
                let cached = try? await store.tokens(for: account, clientID: configuration.clientID, scopes: ScopeSet(scopes))
                guard let refreshToken = cached?.refreshToken else { return .transportFailed("the refresh token vanished from the cache") }
                reply = try await issuer.requestToken(.refreshToken(refreshToken), scopes: wireScopes, claims: claims)
            case .interactive:
                guard let user else { return .cancelled }
                switch try await signInInteractively(account, scopes: wireScopes, claims: claims, user: user) {
                case .code(let code, let verifier):
                    reply = try await issuer.requestToken(
                        .authorizationCode(code: code, verifier: verifier, redirectURI: issuer.configuration.redirectURI),
                        scopes: wireScopes, claims: claims)
                case .cancelled:
                    return .cancelled
                case .error(let code, let description):
                    let error = ServerError(status: 400, error: code, errorDescription: description)
                    return .response(code == "login_required" || code == "interaction_required"
                        ? .interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: error))
                        : .requestRejected(error))
                }
            }
            return .response(TokenResponseClassifier.classify(
                status: reply.status, headers: reply.headers, body: reply.body, receivedAt: clock.now,
                authority: issuer.configuration.authority.url))
        } catch {
            if error.code == .network { return .transportFailed(error.message) }
            if error.code == .signInFailed {
                // The sign-in page did not let the user in (a wrong password, no form): the app
                // needs the user again, as a failed interactive sign-in is for MSAL; not a broken service.
                let server = ServerError(status: error.httpStatus ?? 200, error: "sign_in_failed", errorDescription: error.message)
                return .response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: server)))
            }
            if error.code == .serviceFailure, let status = error.httpStatus {
                return .response(.serviceFailure(ServiceFailure(status: status, retryAfter: error.retryAfterSeconds.map { .seconds(Int64($0)) })))
            }
            return .response(.malformed(MalformedResponse(status: 0, message: "\(error.code): \(error.message)")))
        }
    }

    private enum Authorization {
        case code(String, verifier: String)
        case cancelled
        case error(String, String?)
    }

    /// Authorization code + PKCE with the scripted user at the issuer's sign-in page.
    private func signInInteractively(_ account: AccountID, scopes: [String], claims: String?, user: InteractiveUser) async throws(IssuerError) -> Authorization {
        let pkce = PKCE()
        let state = RandomToken.make()
        let url = try await issuer.authorizeURL(
            scopes: scopes, state: state, nonce: RandomToken.make(), pkce: pkce, claims: claims, loginHint: account.upn)
        let choice: ScriptedUser.Choice = switch user {
        case .signIn(let password): .signIn(username: account.upn, password: password)
        case .cancel: .cancel
        }
        let redirectURI = issuer.configuration.redirectURI
        let location = try await ScriptedUser(choice, http: browserHTTP).authorize(url: url, redirectURI: redirectURI)
        switch try AuthorizationRedirect.parse(location, redirectURI: redirectURI, expectedState: state) {
        case .code(let code, _): return .code(code, verifier: pkce.verifier)
        case .cancelled: return .cancelled
        case .error(let code, let description): return .error(code, description)
        }
    }
}
