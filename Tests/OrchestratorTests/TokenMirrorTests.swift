import ComplianceCore
import Testing

@testable import Orchestrator

/// The engine's memory of the token cache agrees with what the store would answer after each
/// change the engine makes.
@Suite struct TokenMirrorTests {
    let alice = try! AccountID("alice@contoso.com")
    let bob = try! AccountID("bob@contoso.com")
    static let read = ["api://contoso-chat/Chat.Read"]
    static let issuer = "chatr https://login.example/contoso.com"
    static let secondIssuer = "chatr https://login.second.example/contoso.com"

    func tokens(_ value: String, expires: Int64 = 2_000_000_000_000, refresh: Bool = false) -> TokenSet {
        TokenSet(
            accessToken: SecretToken(value), refreshToken: refresh ? SecretToken("r-" + value) : nil,
            expiresOn: Instant(millisecondsSinceEpoch: expires), scopes: Self.read)
    }

    @Test func unknownUntilReadThenAnsweredWithTheRequestsScopes() {
        var mirror = TokenMirror()
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read) == nil)
        mirror.remember(alice, partition: Self.issuer, scopes: ScopeSet(Self.read), .init(accessToken: tokens("a1"), refreshToken: SecretToken("rt-1")))
        // The same scopes in another spelling find the entry, and come back as asked.
        let asked = ["API://contoso-chat/Chat.Read"]
        let entry = mirror.entry(alice, partition: Self.issuer, scopes: asked)
        #expect(entry?.accessToken?.accessToken == SecretToken("a1"))
        #expect(entry?.accessToken?.scopes == asked)
        #expect(entry?.accessToken?.refreshToken == nil, "the access token's set never carries the refresh token")
        #expect(entry?.refreshToken == SecretToken("rt-1"), "the entry carries the refresh token a refresh grant presents")
        #expect(mirror.entry(bob, partition: Self.issuer, scopes: Self.read) == nil)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: ["other"]) == nil, "another scope set is not known yet")
    }

    @Test func anEmptyStoreIsRememberedAsEmpty() {
        var mirror = TokenMirror()
        mirror.remember(alice, partition: Self.issuer, scopes: ScopeSet(Self.read), .empty)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read) == .empty)
    }

    @Test func commitsRefreshDropsAndWipesChangeIt() {
        var mirror = TokenMirror()
        mirror.remember(alice, partition: Self.issuer, scopes: ScopeSet(Self.read), .empty)
        mirror.saved(alice, partition: Self.issuer, scopes: ScopeSet(Self.read), accessToken: tokens("a2", refresh: true), refreshToken: SecretToken("rt-2"))
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.accessToken?.accessToken == SecretToken("a2"))
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.refreshToken == SecretToken("rt-2"))
        // Saving only a refresh token (every scope declined) keeps the access token.
        mirror.saved(alice, partition: Self.issuer, scopes: ScopeSet([]), accessToken: nil, refreshToken: SecretToken("rt-3"))
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.accessToken?.accessToken == SecretToken("a2"))
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.refreshToken == SecretToken("rt-3"), "the newest refresh token is presented")
        mirror.refreshTokenRemoved(alice, partition: Self.issuer)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.hasRefreshToken == false)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.accessToken != nil)
        mirror.remember(bob, partition: Self.issuer, scopes: ScopeSet(Self.read), .init(accessToken: tokens("b1"), refreshToken: SecretToken("rt-1")))
        mirror.tokensRemoved(alice)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read) == nil || mirror.entry(alice, partition: Self.issuer, scopes: Self.read) == .empty)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.accessToken == nil)
        #expect(mirror.entry(bob, partition: Self.issuer, scopes: Self.read)?.accessToken?.accessToken == SecretToken("b1"), "another account's tokens stay")
        mirror.clear()
        #expect(mirror.entry(bob, partition: Self.issuer, scopes: Self.read) == nil)
    }

    /// Each issuer and client keeps its own tokens: a refresh token of one is never the
    /// answer for another, and dropping one issuer's leaves the other's (issue 36, point 2).
    @Test func eachIssuerKeepsItsOwnTokens() {
        var mirror = TokenMirror()
        mirror.remember(alice, partition: Self.issuer, scopes: ScopeSet(Self.read), .init(accessToken: tokens("a1"), refreshToken: SecretToken("rt-1")))
        #expect(mirror.entry(alice, partition: Self.secondIssuer, scopes: Self.read) == nil)
        mirror.remember(alice, partition: Self.secondIssuer, scopes: ScopeSet(Self.read), .empty)
        #expect(mirror.entry(alice, partition: Self.secondIssuer, scopes: Self.read) == .empty)
        mirror.refreshTokenRemoved(alice, partition: Self.secondIssuer)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.hasRefreshToken == true)
        mirror.tokensRemoved(alice)
        #expect(mirror.entry(alice, partition: Self.issuer, scopes: Self.read)?.accessToken == nil)
    }
}
