import JSON
import Testing
@testable import ComplianceCore

@Suite struct TokenResponseClassifierTests {
    let clientInfo = Base64URL.encode(Array(#"{"uid":"oid-1","utid":"tid-2"}"#.utf8))

    func classify(_ status: Int, _ body: String, headers: [(name: String, value: String)] = []) -> TokenResponse {
        TokenResponseClassifier.classify(
            status: status, headers: headers, body: Array(body.utf8), receivedAt: t0,
            authority: "https://login.example.test/contoso.onmicrosoft.com")
    }

    @Test func successDecodesTokensExpiryScopesAndClientInfo() throws {
        let body = #"{"token_type":"Bearer","access_token":"AT1","refresh_token":"RT1","id_token":"ID1","expires_in":3600,"scope":"user.read openid","client_info":"\#(clientInfo)"}"#
        guard case .success(let tokens) = classify(200, body) else { Issue.record("not a success"); return }
        #expect(tokens.accessToken.reveal() == "AT1")
        #expect(tokens.refreshToken?.reveal() == "RT1")
        #expect(tokens.idToken?.reveal() == "ID1")
        #expect(tokens.expiresOn == t0.advanced(by: .seconds(3600)))
        #expect(tokens.scopes == ["user.read", "openid"])
        #expect(tokens.clientInfo == ClientInfo(uid: "oid-1", utid: "tid-2"))
        #expect(tokens.clientInfo?.homeAccountID == HomeAccountID("oid-1.tid-2"))
    }

    @Test func expiresInAsStringIsAccepted() {
        guard case .success(let tokens) = classify(200, #"{"access_token":"AT","expires_in":"60"}"#) else { Issue.record("not a success"); return }
        #expect(tokens.expiresOn == t0.advanced(by: .seconds(60)))
    }

    @Test func protectionPolicyRequiredOn400() {
        let body = #"{"error":"unauthorized_client","error_description":"AADSTS53005: Application needs to enforce Intune protection policies.","error_codes":[53005],"correlation_id":"corr-1","suberror":"protection_policy_required","adi":"alice@contoso.com","client_info":"\#(clientInfo)"}"#
        guard case .protectionPolicyRequired(let details) = classify(400, body) else { Issue.record("not PPR"); return }
        #expect(details.displayableID == "alice@contoso.com")
        #expect(details.homeAccountID == HomeAccountID("oid-1.tid-2"))
        #expect(details.tenantID == "tid-2")
        #expect(details.authority == "https://login.example.test/contoso.onmicrosoft.com")
        #expect(details.correlationID == "corr-1")
        #expect(details.serverError.errorCodes == [53005])
    }

    @Test func protectionPolicyRequiredIsLenient() {
        for body in [
            #"{"error":"UNAUTHORIZED_CLIENT","suberror":"protection_policy_required"}"#,
            #"{"error":"invalid_grant","suberror":"protection_policy_required","adi":"a@b"}"#,
        ] {
            for status in [200, 400] {
                guard case .protectionPolicyRequired(let details) = classify(status, body) else {
                    Issue.record("\(status) \(body) not PPR"); continue
                }
                #expect(details.tenantID == "contoso.onmicrosoft.com")  // from the authority without client_info
            }
        }
    }

    /// `suberror` compares ignoring case, like `error` (MSAL lower-cases both): for
    /// protection-policy-required, the bad-refresh-token reasons and the interaction reasons.
    @Test func suberrorsCompareIgnoringCase() {
        for body in [
            #"{"error":"unauthorized_client","suberror":"Protection_Policy_Required"}"#,
            #"{"error":"Invalid_Grant","suberror":"PROTECTION_POLICY_REQUIRED"}"#,
        ] {
            guard case .protectionPolicyRequired = classify(400, body) else { Issue.record("\(body) not PPR: \(classify(400, body))"); continue }
        }
        guard case .badRefreshToken(let bad) = classify(400, #"{"error":"invalid_grant","suberror":"Bad_Token"}"#) else {
            Issue.record("Bad_Token is not a bad refresh token"); return
        }
        #expect(bad.reason == .badToken)
        guard case .interactionRequired(let interaction) = classify(400, #"{"error":"invalid_grant","suberror":"Basic_Action"}"#) else {
            Issue.record("Basic_Action is not interaction required"); return
        }
        #expect(interaction.reason == .basicAction)
    }

    @Test func capabilityMissing53009() {
        guard case .capabilityMissing(let error) = classify(400, #"{"error":"invalid_grant","error_codes":[53009]}"#) else {
            Issue.record("not 53009"); return
        }
        #expect(error.errorCodes == [53009])
    }

    @Test(arguments: BadRefreshTokenReason.allCases)
    func badRefreshTokenSuberrors(reason: BadRefreshTokenReason) {
        guard case .badRefreshToken(let details) = classify(400, #"{"error":"invalid_grant","suberror":"\#(reason.rawValue)"}"#) else {
            Issue.record("not bad token"); return
        }
        #expect(details.reason == reason)
    }

    @Test func interactionRequiredVariants() {
        let cases: [(String, InteractionReason)] = [
            (#"{"error":"invalid_grant","suberror":"basic_action"}"#, .basicAction),
            (#"{"error":"invalid_grant","suberror":"additional_action"}"#, .additionalAction),
            (#"{"error":"invalid_grant","suberror":"message_only"}"#, .messageOnly),
            (#"{"error":"invalid_grant","suberror":"consent_required"}"#, .consentRequired),
            (#"{"error":"invalid_grant","suberror":"user_password_expired"}"#, .userPasswordExpired),
            (#"{"error":"interaction_required"}"#, .interactionRequired),
            (#"{"error":"invalid_grant"}"#, .invalidGrant),
            (#"{"error":"invalid_grant","suberror":"brand_new"}"#, .other("brand_new")),
        ]
        for (body, reason) in cases {
            guard case .interactionRequired(let details) = classify(400, body) else { Issue.record("\(body)"); continue }
            #expect(details.reason == reason)
        }
    }

    @Test func claimsChallengeIsCarried() {
        let body = #"{"error":"interaction_required","claims":"{\"access_token\":{\"capolids\":{\"essential\":true,\"values\":[\"p1\"]}}}"}"#
        guard case .interactionRequired(let details) = classify(400, body) else { Issue.record("not interaction"); return }
        #expect(details.claimsChallenge == #"{"access_token":{"capolids":{"essential":true,"values":["p1"]}}}"#)
    }

    @Test func serviceFailureHonoursRetryAfter() {
        guard case .serviceFailure(let failure) = classify(503, "<html>busy</html>", headers: [("Retry-After", " 120 ")]) else {
            Issue.record("not service failure"); return
        }
        #expect(failure.status == 503)
        #expect(failure.retryAfter == .seconds(120))
        guard case .serviceFailure(let throttled) = classify(429, #"{"error":"temporarily_unavailable"}"#, headers: [("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")]) else {
            Issue.record("not service failure"); return
        }
        #expect(throttled.retryAfter == nil)
        #expect(throttled.serverError?.error == "temporarily_unavailable")
    }

    @Test func anEmptyBodyIsMalformedIn200() {
        guard case .malformed(let malformed) = classify(200, "") else { Issue.record("not malformed"); return }
        #expect(malformed.message == "HTTP 200 response has an empty body; expected a JSON token response")
        #expect(malformed.parseError?.code == .empty)
    }

    /// A refusal without an OAuth error in its body is classified by its status alone.
    @Test(arguments: [
        (400, "", "invalid_request", "HTTP 400 response has an empty body; expected a JSON token response"),
        (401, "", "invalid_client", "HTTP 401 response has an empty body; expected a JSON token response"),
        (403, "Forbidden", "unauthorized_client", "HTTP 403 response is not JSON"),
        (401, "<html><body>denied</body></html>", "invalid_client", "HTTP 401 response is not JSON (the server sent an HTML/XML page)"),
        (400, "[1]", "invalid_request", "HTTP 400 body is a JSON array, expected an object"),
        (400, #"{"access_token":"a"}"#, "invalid_request", #"HTTP 400 body has no "error" field"#),
    ])
    func aRefusalWithoutAnOAuthErrorIsClassifiedByItsStatus(status: Int, body: String, error: String, message: String) {
        guard case .requestRejected(let server) = classify(status, body) else { Issue.record("not a rejection: \(classify(status, body))"); return }
        #expect(server.derivedFromStatus)
        #expect(server.status == status && server.error == error)
        #expect(server.errorDescription?.hasPrefix(message) == true, "\(server.errorDescription ?? "nil")")
        #expect(server.description.hasPrefix("HTTP \(status) without an OAuth error"))
    }

    @Test func htmlPageIsMalformedNamingTheStatus() {
        guard case .malformed(let malformed) = classify(200, "<!DOCTYPE html><html><body>Sign in</body></html>", headers: [("Content-Type", "text/html")]) else {
            Issue.record("not malformed"); return
        }
        #expect(malformed.message.hasPrefix("HTTP 200 response is not JSON (the server sent an HTML/XML page, content-type text/html)"))
    }

    @Test func strictStructure() {
        let cases: [(Int, String, String)] = [
            (200, "[1,2]", "HTTP 200 body is a JSON array, expected an object"),
            (200, #"{"token_type":"Bearer"}"#, #"HTTP 200 token response: "access_token" is missing or empty"#),
            (200, #"{"access_token":5}"#, #"HTTP 200 token response: "access_token" is a integer, expected a string"#),
            (200, #"{"access_token":"a","expires_in":-5}"#, #"HTTP 200 token response: "expires_in" is a integer, expected a non-negative integer"#),
            (400, #"{"error":["x"]}"#, #"HTTP 400 token response: "error" is a array, expected a string"#),
            (400, #"{"error":"invalid_grant","error_codes":"53005"}"#, #"HTTP 400 token response: "error_codes" is a string, expected an array of integers"#),
            (400, #"{"error":"invalid_grant","claims":"not json"}"#, #"HTTP 400 token response: "claims" is not the text of a JSON object"#),
            (200, #"{"access_token":"a","client_info":"!!"}"#, "HTTP 200 token response: client_info is not base64url"),
            (302, "", "HTTP 302 is not a token endpoint answer (expected 200, or 400 with an OAuth error) (empty body)"),
        ]
        for (status, body, message) in cases {
            guard case .malformed(let malformed) = classify(status, body) else { Issue.record("\(body) not malformed"); continue }
            #expect(malformed.message == message)
            #expect(malformed.status == status)
        }
    }

    @Test func otherOAuthErrorsAreRejections() {
        guard case .requestRejected(let error) = classify(401, #"{"error":"invalid_client"}"#) else { Issue.record("not rejected"); return }
        #expect(error.status == 401)
    }

    @Test func tokensNeverAppearInDescriptions() {
        let body = #"{"access_token":"SECRET-AT-123","refresh_token":"SECRET-RT-456","id_token":"SECRET-ID-789","expires_in":10}"#
        let response = classify(200, body)
        let texts = [
            String(describing: response), String(reflecting: response), "\(response)",
            String(describing: TokenAcquisitionStateMachine.Action.deliverTokens(tokenSet("SECRET-AT-123"), store: true)),
            String(reflecting: RemediationStateMachine.Action.deliverStatus(ComplianceStatusReport(account: alice, status: .compliant), tokens: tokenSet("SECRET-AT-123"))),
        ]
        var dumped = ""
        dump(response, to: &dumped)
        for text in texts + [dumped] {
            #expect(!text.contains("SECRET"), "token leaked: \(text)")
        }
        #expect(texts[0].contains("redacted"))
    }

    @Test func clientInfoErrorsNameTheirCause() {
        guard case .failure(let notBase64) = ClientInfo.decode("%%") else { Issue.record("decoded %%"); return }
        #expect(notBase64.code == .notBase64URL)
        guard case .failure(let missing) = ClientInfo.decode(Base64URL.encode(Array(#"{"uid":"a"}"#.utf8))) else { Issue.record("decoded"); return }
        #expect(missing.code == .missingField)
        guard case .failure(let notJSON) = ClientInfo.decode(Base64URL.encode(Array("uid".utf8))) else { Issue.record("decoded"); return }
        #expect(notJSON.code == .notJSON)
    }

    @Test func base64URLRoundTrips() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("YQ==") == [97])
        #expect(Base64URL.decode("YQ") == [97])
        #expect(Base64URL.decode("Y") == nil)
        #expect(Base64URL.decode("Y=Q") == nil)
    }
}
