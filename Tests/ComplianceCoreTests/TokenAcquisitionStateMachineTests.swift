import Testing
@testable import ComplianceCore

@Suite struct TokenAcquisitionStateMachineTests {
    let protapp = #"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#

    func machine(challenge: String? = nil, interactive: Bool = true) -> TokenAcquisitionStateMachine {
        var machine = TokenAcquisitionStateMachine(request: .init(account: alice, scopes: ["user.read"], claimsChallenge: challenge, allowInteraction: interactive))
        _ = machine.start()
        return machine
    }

    func refreshing(interactive: Bool = true) -> TokenAcquisitionStateMachine {
        var machine = machine(interactive: interactive)
        _ = machine.cacheRead(.init(accessToken: nil, refreshToken: SecretToken("rt-1")), now: t0)
        return machine
    }

    @Test func startReadsTheCache() {
        var machine = TokenAcquisitionStateMachine(request: .init(account: alice, scopes: ["user.read"], allowInteraction: false))
        #expect(machine.start() == .readCache(alice, scopes: ["user.read"]))
    }

    @Test func freshCachedTokenIsDelivered() {
        var machine = machine()
        let cached = tokenSet(expiresOn: t0.advanced(by: .minutes(6)))
        #expect(machine.cacheRead(.init(accessToken: cached, refreshToken: SecretToken("rt-1")), now: t0) == .deliverTokens(cached, store: false))
    }

    @Test func tokenWithinFiveMinutesOfExpiryIsRefreshed() {
        var machine = machine()
        let cached = tokenSet(expiresOn: t0.advanced(by: .minutes(5)))
        #expect(machine.cacheRead(.init(accessToken: cached, refreshToken: SecretToken("rt-1")), now: t0)
            == .requestToken(.refreshToken(SecretToken("rt-1")), alice, scopes: ["user.read"], claims: protapp))
    }

    @Test func claimsChallengeSkipsTheCache() {
        let challenge = #"{"access_token":{"nbf":{"essential":true,"value":"1"}}}"#
        var machine = machine(challenge: challenge)
        let cached = tokenSet(expiresOn: t0.advanced(by: .hours(1)))
        #expect(machine.cacheRead(.init(accessToken: cached, refreshToken: SecretToken("rt-1")), now: t0)
            == .requestToken(.refreshToken(SecretToken("rt-1")), alice, scopes: ["user.read"], claims: #"{"access_token":{"xms_cc":{"values":["protapp"]},"nbf":{"essential":true,"value":"1"}}}"#))
    }

    /// An unreadable cache is not an empty one: nothing is sent, the person is not sent to the
    /// sign-in page, the request fails with what the store said.
    @Test func anUnreadableCacheFailsUnsentEvenWhenInteractionIsAllowed() {
        var machine = machine(interactive: true)
        #expect(machine.storeFailed("disk I/O error") == .fail(.tokenCacheUnreadable("disk I/O error")))
        #expect(TokenAcquisitionFailure.tokenCacheUnreadable("x").complianceStatus == .serviceFailure)
        #expect(machine.storeFailed("late") == .none, "a late store answer changes nothing")
    }

    /// A dead refresh token that cannot be deleted is not used again either: the sign-in
    /// page follows, as after a deletion.
    @Test func aRefreshTokenThatCannotBeDeletedIsNotUsedAgain() {
        var machine = refreshing()
        let dead = InteractionRequired(reason: .invalidGrant, serverError: ServerError(status: 400, error: "invalid_grant"))
        #expect(machine.tokenResponseReceived(.interactionRequired(dead)) == .removeRefreshToken(alice))
        #expect(machine.storeFailed("disk full") == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
    }

    @Test func nothingCachedGoesInteractiveWhenAllowed() {
        var machine = machine()
        #expect(machine.cacheRead(.empty, now: t0) == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
    }

    @Test func nothingCachedFailsWhenSilent() {
        var machine = machine(interactive: false)
        #expect(machine.cacheRead(.empty, now: t0) == .fail(.interactionRequired(nil)))
        #expect(machine.stateName == "failed")
    }

    @Test func refreshSuccessIsStoredAndDelivered() {
        var machine = refreshing()
        let tokens = tokenSet()
        #expect(machine.tokenResponseReceived(.success(tokens)) == .deliverTokens(tokens, store: true))
        #expect(machine.tokenResponseReceived(.success(tokens)) == .none)  // late
    }

    @Test func protectionPolicyRequiredFails() {
        var machine = refreshing()
        let details = ProtectionPolicyRequired(displayableID: "alice@contoso.com", serverError: serverError("unauthorized_client", suberror: "protection_policy_required"))
        #expect(machine.tokenResponseReceived(.protectionPolicyRequired(details)) == .fail(.protectionPolicyRequired(details)))
    }

    @Test func badRefreshTokenIsDroppedThenInteractive() {
        var machine = refreshing()
        let bad = BadRefreshToken(reason: .tokenExpired, serverError: serverError("invalid_grant", suberror: "token_expired"))
        #expect(machine.tokenResponseReceived(.badRefreshToken(bad)) == .removeRefreshToken(alice))
        #expect(machine.refreshTokenRemoved() == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
    }

    @Test func badRefreshTokenWhenSilentFailsAfterDropping() {
        var machine = refreshing(interactive: false)
        let bad = BadRefreshToken(reason: .badToken, serverError: serverError("invalid_grant", suberror: "bad_token"))
        #expect(machine.tokenResponseReceived(.badRefreshToken(bad)) == .removeRefreshToken(alice))
        guard case .fail(.interactionRequired(let details?)) = machine.refreshTokenRemoved() else { Issue.record("expected interaction required"); return }
        #expect(details.reason == .other("bad_token"))
    }

    /// `invalid_grant` on a refresh means the refresh token is refused: it is dropped, then the
    /// sign-in page (or InteractionRequired when silent).
    @Test(arguments: [true, false])
    func invalidGrantDropsTheRefreshTokenFirst(interactive: Bool) {
        var machine = refreshing(interactive: interactive)
        let details = InteractionRequired(reason: .invalidGrant, serverError: serverError("invalid_grant"))
        #expect(machine.tokenResponseReceived(.interactionRequired(details)) == .removeRefreshToken(alice))
        if interactive {
            #expect(machine.refreshTokenRemoved() == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
        } else {
            #expect(machine.refreshTokenRemoved() == .fail(.interactionRequired(details)))
        }
    }

    /// A refusal without an OAuth error (400 or 401, body empty or not JSON) is treated as a
    /// refused refresh token; a 403 or a JSON `invalid_client` (a wrong secret) is not.
    @Test func aRefreshRefusedWithoutAnOAuthErrorDropsTheRefreshToken() {
        for status in [400, 401] {
            var machine = refreshing()
            let error = ServerError(status: status, error: "invalid_request", errorDescription: "empty body", derivedFromStatus: true)
            #expect(machine.tokenResponseReceived(.requestRejected(error)) == .removeRefreshToken(alice), "\(status)")
            #expect(machine.refreshTokenRemoved() == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
        }
        var forbidden = refreshing()
        let denied = ServerError(status: 403, error: "unauthorized_client", derivedFromStatus: true)
        #expect(forbidden.tokenResponseReceived(.requestRejected(denied)) == .fail(.requestRejected(denied)))
        var wrongSecret = refreshing()
        let invalidClient = ServerError(status: 401, error: "invalid_client", errorDescription: "AADSTS7000215: Invalid client secret provided.")
        #expect(wrongSecret.tokenResponseReceived(.requestRejected(invalidClient)) == .fail(.requestRejected(invalidClient)))
    }

    /// invalid_grant with a suberror that asks for an action in the page keeps the refresh token.
    @Test func invalidGrantAskingForMFAGoesInteractiveKeepingTheRefreshToken() {
        var machine = refreshing()
        let details = InteractionRequired(reason: .basicAction, serverError: serverError("invalid_grant", suberror: "basic_action"))
        #expect(machine.tokenResponseReceived(.interactionRequired(details)) == .requestToken(.interactive, alice, scopes: ["user.read"], claims: protapp))
    }

    /// Fewer scopes granted than asked: kept under the granted part only, and the request fails
    /// naming both lists; OIDC scopes the issuer leaves out, `.default` requests and an answer
    /// without `scope` decline nothing.
    @Test func declinedScopesKeepTheGrantedPartAndFail() {
        var machine = TokenAcquisitionStateMachine(request: .init(account: alice, scopes: ["api://x/Read", "API://x/Write", "openid"], allowInteraction: true))
        _ = machine.start()
        _ = machine.cacheRead(.init(accessToken: nil, refreshToken: SecretToken("rt-1")), now: t0)
        let partial = TokenSet(accessToken: SecretToken("a"), refreshToken: SecretToken("r"), expiresOn: t0.advanced(by: .hours(1)), scopes: ["api://x/read"])
        let failure = TokenAcquisitionFailure.declinedScopes(DeclinedScopes(granted: ["api://x/read"], declined: ["API://x/Write"]))
        #expect(machine.tokenResponseReceived(.success(partial)) == .keepGranted(partial, scopes: ["api://x/Read", "openid"], failure: failure))
        #expect(machine.tokenResponseReceived(.success(partial)) == .none)  // late
        #expect(failure.complianceStatus == .notCompliant)
        #expect(failure.message.contains("granted [api://x/read] and declined [API://x/Write]"))

        #expect(DeclinedScopes.declined(requested: ["api://x/.default"], granted: ["api://x/Read"]).isEmpty)
        #expect(DeclinedScopes.declined(requested: ["api://x/Read", "offline_access", "email"], granted: ["api://x/Read"]).isEmpty)
        #expect(DeclinedScopes.declined(requested: ["api://x/Read"], granted: []).isEmpty)
    }

    @Test func aMisconfiguredIssuerFailsTheInteractiveSignInQuotingIt() {
        var machine = machine()
        _ = machine.cacheRead(.empty, now: t0)
        let answer = "its authorize endpoint answered HTTP 400: \"AADSTS700016: unknown client\""
        #expect(machine.issuerMisconfigured(answer) == .fail(.issuerConfiguration(answer)))
        #expect(TokenAcquisitionFailure.issuerConfiguration(answer).complianceStatus == .serviceFailure)
        #expect(TokenAcquisitionFailure.issuerConfiguration(answer).message.contains("AADSTS700016"))
    }

    @Test func interactionRequiredCarriesTheChallengeIntoTheInteractiveRequest() {
        var machine = refreshing()
        let challenge = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let details = InteractionRequired(reason: .interactionRequired, claimsChallenge: challenge, serverError: serverError("interaction_required", claims: challenge))
        #expect(machine.tokenResponseReceived(.interactionRequired(details))
            == .requestToken(.interactive, alice, scopes: ["user.read"], claims: #"{"access_token":{"xms_cc":{"values":["protapp"]},"acrs":{"essential":true,"value":"c1"}}}"#))
    }

    @Test func serviceFailureFails() {
        var machine = refreshing()
        let failure = ServiceFailure(status: 503, retryAfter: .seconds(30))
        #expect(machine.tokenResponseReceived(.serviceFailure(failure)) == .fail(.serviceFailure(failure)))
        #expect(TokenAcquisitionFailure.serviceFailure(failure).complianceStatus == .serviceFailure)
    }

    @Test func transportFailureIsANetworkFailure() {
        var machine = refreshing()
        #expect(machine.transportFailed("connection refused") == .fail(.networkFailure("connection refused")))
        #expect(machine.transportFailed("again") == .none)
    }

    @Test func userCancelledInteractiveSignIn() {
        var machine = machine()
        _ = machine.cacheRead(.empty, now: t0)
        #expect(machine.userCancelled() == .fail(.userCancelled))
    }

    @Test func interactiveSuccessIsDelivered() {
        var machine = machine()
        _ = machine.cacheRead(.empty, now: t0)
        let tokens = tokenSet()
        #expect(machine.tokenResponseReceived(.success(tokens)) == .deliverTokens(tokens, store: true))
    }

    @Test func interactiveErrorFails() {
        var machine = machine()
        _ = machine.cacheRead(.empty, now: t0)
        let error = serverError("invalid_grant", codes: [53009])
        #expect(machine.tokenResponseReceived(.capabilityMissing(error)) == .fail(.capabilityMissing(error)))
    }

    @Test func accountRemovedDuringARequestDeliversNothing() {
        var machine = refreshing()
        #expect(machine.accountRemoved() == .fail(.accountRemoved))
        #expect(machine.tokenResponseReceived(.success(tokenSet())) == .none)
    }

    @Test func anInvalidChallengeFailsClearly() {
        var machine = machine(challenge: "[]")
        guard case .fail(.invalidClaimsChallenge) = machine.cacheRead(.init(accessToken: nil, refreshToken: SecretToken("rt-1")), now: t0) else {
            Issue.record("expected invalid claims challenge"); return
        }
    }
}
