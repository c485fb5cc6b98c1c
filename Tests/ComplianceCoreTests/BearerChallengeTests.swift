import Testing
@testable import ComplianceCore

/// A resource's `WWW-Authenticate` read as a CAE claims challenge (``BearerChallenge``), and the
/// MAM classifier's use of it.
@Suite struct BearerChallengeTests {
    /// `{"access_token":{"nbf":{"essential":true,"value":"1604106651"}}}`, Entra's documented example.
    static let claims = #"{"access_token":{"nbf":{"essential":true,"value":"1604106651"}}}"#
    static let standard = "eyJhY2Nlc3NfdG9rZW4iOnsibmJmIjp7ImVzc2VudGlhbCI6dHJ1ZSwidmFsdWUiOiIxNjA0MTA2NjUxIn19fQ=="

    @Test func entrasChallengeGivesItsClaims() {
        let header = #"Bearer authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", error="insufficient_claims", claims="\#(Self.standard)""#
        #expect(BearerChallenge.claims(fromWWWAuthenticate: header) == Self.claims)
    }

    @Test func urlSafeUnpaddedAndTokenValuesAreRead() {
        let unpadded = String(Self.standard.prefix { $0 != "=" })
        #expect(BearerChallenge.claims(fromWWWAuthenticate: #"Bearer error="insufficient_claims", claims="\#(unpadded)""#) == Self.claims)
        #expect(BearerChallenge.claims(fromWWWAuthenticate: "Bearer error=insufficient_claims, claims=\(Self.standard)") == Self.claims)
        #expect(BearerChallenge.claims(fromWWWAuthenticate: "bearer ERROR=\"Insufficient_Claims\",CLAIMS=\"\(Self.standard)\"") == Self.claims)
    }

    @Test func theBearerChallengeAmongOthersCounts() {
        let header = #"Basic realm="x", Bearer realm="api", error="insufficient_claims", claims="\#(Self.standard)", PoP nonce="n""#
        #expect(BearerChallenge.claims(fromWWWAuthenticate: header) == Self.claims)
        let challenges = BearerChallenge.challenges(header)
        #expect(challenges.map(\.scheme) == ["Basic", "Bearer", "PoP"], "\(challenges)")
        #expect(challenges[1].parameters["realm"] == "api")
    }

    @Test func quotedStringsKeepEscapesAndCommas() {
        let challenges = BearerChallenge.challenges(#"Bearer error_description="a, \"quoted\" text", error="invalid_token""#)
        #expect(challenges == [.init(scheme: "Bearer", parameters: ["error_description": #"a, "quoted" text"#, "error": "invalid_token"])])
    }

    @Test(arguments: [
        #"Bearer error="invalid_token", error_description="expired""#,  // another error
        #"Bearer error="insufficient_claims""#,  // no claims
        #"Bearer error="insufficient_claims", claims="not base64!""#,
        #"Bearer error="insufficient_claims", claims="WzEsMl0=""#,  // [1,2]: not an object
        #"Bearer error="insufficient_claims", claims="""#,
        #"PoP error="insufficient_claims", claims="eyJhIjoxfQ==""#,  // another scheme
        #"error="insufficient_claims", claims="eyJhIjoxfQ==""#,  // no scheme
        "", "Bearer", #"Bearer error="insufficient_claims", claims="eyJh"#,  // unterminated
    ])
    func whatIsNoChallengeGivesNothing(header: String) {
        #expect(BearerChallenge.claims(fromWWWAuthenticate: header) == nil)
    }

    @Test func theClassifierTurnsA401ChallengeIntoClaims() {
        let header = #"Bearer error="insufficient_claims", claims="\#(Self.standard)""#
        #expect(MAMResponseClassifier.refused(status: 401, wwwAuthenticate: header) == .claimsChallenge(Self.claims))
        #expect(MAMResponseClassifier.refused(status: 403, wwwAuthenticate: header) == .unauthorized, "a 403 is no challenge")
        #expect(MAMResponseClassifier.refused(status: 401, wwwAuthenticate: #"Bearer error="invalid_token""#) == .unauthorized)
        #expect(MAMResponseClassifier.refused(status: 401, wwwAuthenticate: nil) == .unauthorized)
        let request = ComplianceMachine.MAMRequest.enroll(try! AccountID("alice@contoso.com"), token: SecretToken("t"))
        #expect(MAMResponseClassifier.classify(request, failure: .claimsChallenge(Self.claims), detail: "401") == .claimsChallenge(claims: Self.claims, detail: "401"))
        #expect(ComplianceMachine.MAMResult.claimsChallenge(claims: Self.claims, detail: "401").challengeRefused(retried: true)
            == .failed(.authRequired, detail: "401; the MAM service refused even the token asked for with its claims challenge"))
    }

    @Test func cp1IsDeclaredIgnoringCase() {
        #expect(ComplianceCore.declaresContinuousAccess(["protapp", "CP1"]))
        #expect(!ComplianceCore.declaresContinuousAccess(["protapp", "cp2"]))
    }
}
