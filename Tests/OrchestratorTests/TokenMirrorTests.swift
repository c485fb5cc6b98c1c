import ComplianceCore
import Testing

@testable import Orchestrator

/// The engine's memory of the token cache agrees with what the store would answer after each
/// change the engine makes.
@Suite struct TokenMirrorTests {
    let alice = try! AccountID("alice@contoso.com")
    let bob = try! AccountID("bob@contoso.com")
    static let read = ["api://contoso-chat/Chat.Read"]

    func tokens(_ value: String, expires: Int64 = 2_000_000_000_000, refresh: Bool = false) -> TokenSet {
        TokenSet(
            accessToken: SecretToken(value), refreshToken: refresh ? SecretToken("r-" + value) : nil,
            expiresOn: Instant(millisecondsSinceEpoch: expires), scopes: Self.read)
    }

    @Test func unknownUntilReadThenAnsweredWithTheRequestsScopes() {
        var mirror = TokenMirror()
        #expect(mirror.entry(alice, scopes: Self.read) == nil)
        mirror.remember(alice, scopes: ScopeSet(Self.read), .init(accessToken: tokens("a1"), hasRefreshToken: true))
        // The same scopes in another spelling find the entry, and come back as asked.
        let asked = ["API://contoso-chat/Chat.Read"]
        let entry = mirror.entry(alice, scopes: asked)
        #expect(entry?.accessToken?.accessToken == SecretToken("a1"))
        #expect(entry?.accessToken?.scopes == asked)
        #expect(entry?.accessToken?.refreshToken == nil, "a cache entry never carries the refresh token itself")
        #expect(entry?.hasRefreshToken == true)
        #expect(mirror.entry(bob, scopes: Self.read) == nil)
        #expect(mirror.entry(alice, scopes: ["other"]) == nil, "another scope set is not known yet")
    }

    @Test func anEmptyStoreIsRememberedAsEmpty() {
        var mirror = TokenMirror()
        mirror.remember(alice, scopes: ScopeSet(Self.read), .empty)
        #expect(mirror.entry(alice, scopes: Self.read) == .empty)
    }

    @Test func commitsRefreshDropsAndWipesChangeIt() {
        var mirror = TokenMirror()
        mirror.remember(alice, scopes: ScopeSet(Self.read), .empty)
        mirror.saved(alice, scopes: ScopeSet(Self.read), accessToken: tokens("a2", refresh: true), refreshToken: true)
        #expect(mirror.entry(alice, scopes: Self.read)?.accessToken?.accessToken == SecretToken("a2"))
        #expect(mirror.entry(alice, scopes: Self.read)?.hasRefreshToken == true)
        // Saving only a refresh token (every scope declined) keeps the access token.
        mirror.saved(alice, scopes: ScopeSet([]), accessToken: nil, refreshToken: true)
        #expect(mirror.entry(alice, scopes: Self.read)?.accessToken?.accessToken == SecretToken("a2"))
        mirror.refreshTokenRemoved(alice)
        #expect(mirror.entry(alice, scopes: Self.read)?.hasRefreshToken == false)
        #expect(mirror.entry(alice, scopes: Self.read)?.accessToken != nil)
        mirror.remember(bob, scopes: ScopeSet(Self.read), .init(accessToken: tokens("b1"), hasRefreshToken: true))
        mirror.tokensRemoved(alice)
        #expect(mirror.entry(alice, scopes: Self.read) == nil || mirror.entry(alice, scopes: Self.read) == .empty)
        #expect(mirror.entry(alice, scopes: Self.read)?.accessToken == nil)
        #expect(mirror.entry(bob, scopes: Self.read)?.accessToken?.accessToken == SecretToken("b1"), "another account's tokens stay")
        mirror.clear()
        #expect(mirror.entry(bob, scopes: Self.read) == nil)
    }
}
