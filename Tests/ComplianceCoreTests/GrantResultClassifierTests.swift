import Testing
@testable import ComplianceCore

/// Grants without a token answer, classified by ComplianceCore (issue 37: the Engine decides
/// nothing): redirect errors, sign-ins nobody finished, and the issuer client's problems.
@Suite struct GrantResultClassifierTests {
    static func interaction(_ result: ComplianceMachine.GrantResult) -> ServerError? {
        if case .response(.interactionRequired(let details)) = result { return details.serverError }
        return nil
    }

    @Test func redirectErrorsNeedTheUserFailTheServiceOrTheConfiguration() {
        for code in ["login_required", "interaction_required", "consent_required", "account_selection_required"] {
            #expect(Self.interaction(GrantResultClassifier.redirectError(code, "why"))?.error == code)
        }
        for code in ["server_error", "temporarily_unavailable"] {
            guard case .response(.serviceFailure(let failure)) = GrantResultClassifier.redirectError(code, nil) else { Issue.record("\(code)"); continue }
            #expect(failure.status == 503)
        }
        guard case .misconfigured(let text) = GrantResultClassifier.redirectError("unauthorized_client", "AADSTS700016") else { Issue.record("misconfigured"); return }
        #expect(text.contains("unauthorized_client") && text.contains("AADSTS700016"))
    }

    @Test func issuerProblemsMapToTheMachinesResults() {
        #expect(GrantResultClassifier.result(of: .network("refused")) == .transportFailed("refused"))
        #expect(GrantResultClassifier.result(of: .misconfigured("400")) == .misconfigured("400"))
        let wrongPassword = Self.interaction(GrantResultClassifier.result(of: .signInFailed(status: nil, message: "AADSTS50126: Error validating credentials")))
        #expect(wrongPassword?.error == "sign_in_failed" && wrongPassword?.errorCodes == [50126] && wrongPassword?.status == 200)
        guard case .response(.serviceFailure(let failure)) = GrantResultClassifier.result(of: .serviceFailure(status: 429, retryAfterSeconds: 30)) else {
            Issue.record("a 429"); return
        }
        #expect(failure.status == 429 && failure.retryAfter == .seconds(30))
        guard case .response(.malformed(let malformed)) = GrantResultClassifier.result(of: .invalidIDToken("bad nonce")) else { Issue.record("id_token"); return }
        #expect(malformed.message.contains("id_token was refused: bad nonce"))
        #expect(Self.interaction(GrantResultClassifier.interactionEnded("no redirect"))?.error == "interaction_timeout")
    }

    @Test func anOpenIDSignInWithoutAnIDTokenIsMalformedOtherGrantsStand() {
        let tokens = TokenSet(accessToken: SecretToken("at"), expiresOn: Instant(millisecondsSinceEpoch: 1), scopes: ["openid"])
        let response = TokenResponse.success(tokens)
        guard case .response(.malformed(let malformed)) = GrantResultClassifier.withoutIDToken(response, status: 200, openIDSignIn: true) else {
            Issue.record("an OpenID Connect sign-in without an id_token was not malformed")
            return
        }
        #expect(malformed.status == 200 && malformed.message.contains("no id_token"))
        #expect(GrantResultClassifier.withoutIDToken(response, status: 200, openIDSignIn: false) == .response(response))
    }

    /// Nobody to ask is not a cancel: the request needs its user (InteractionRequired).
    @Test func nobodyToAskIsInteractionRequiredNotACancel() {
        guard case .response(.interactionRequired(let required)) = GrantResultClassifier.nobodyToAsk() else {
            Issue.record("nobody to ask is \(GrantResultClassifier.nobodyToAsk())")
            return
        }
        #expect(TokenAcquisitionFailure.interactionRequired(required).complianceStatus == .interactionRequired)
    }
}
