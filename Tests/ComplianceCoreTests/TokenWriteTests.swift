import Testing
@testable import ComplianceCore

/// What a token write caches (``ComplianceMachine/TokenWrite``): the rule the Engine's store
/// and the explorer's world both follow.
@Suite struct TokenWriteTests {
    static let alice = try! AccountID("alice@contoso.com")
    static let tokens = TokenSet(
        accessToken: SecretToken("at"), refreshToken: SecretToken("rt"), expiresOn: Instant(millisecondsSinceEpoch: 1), scopes: ["openid"])

    @Test func grantedScopesCacheTheAccessToken() {
        #expect(ComplianceMachine.TokenWrite(Self.alice, ["api://contoso-chat/Chat.Read"], Self.tokens, .app).cachedAccessToken == Self.tokens)
    }

    @Test func noScopesGrantedCachesTheRefreshTokenAlone() {
        let write = ComplianceMachine.TokenWrite(Self.alice, [], Self.tokens, .app)
        #expect(write.cachedAccessToken == nil)
        #expect(write.tokens.refreshToken != nil)
    }
}
