import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// Issue 52 item 9: a single-page app's code needs PKCE cross-origin (9002325); its refresh
/// token is redeemed only cross-origin (9002327) and lives 24 hours (700084).
@Suite("Single-page apps: PKCE and refresh tokens")
struct SinglePageAppTests {
    static func crossOrigin(_ client: any TestClientProtocol, _ fields: [(String, String)]) async throws -> (HTTPResponse.Status, JSONValue) {
        try await client.postForm("/contoso.com/oauth2/v2.0/token", fields, headers: [.origin: CrossOriginTests.origin])
    }

    @Test("a code issued without code_challenge is refused cross-origin (9002325)")
    func pkceRequired() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let query = CrossOriginTests.spaQuery().split(separator: "&").filter { !$0.hasPrefix("code_challenge") }.joined(separator: "&")
            let signIn = try await Browser(client: client).signIn(query: query, login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(signIn)["code"])
            let fields = CrossOriginTests.redeem(code).filter { $0.0 != "code_verifier" }
            let (status, body) = try await Self.crossOrigin(client, fields)
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [9002325], "\(body)")
        }
    }

    @Test("an SPA refresh token redeems only cross-origin, and only for 24 hours")
    func refreshToken() async throws {
        try await TestSupport.withRouterApp { client, state in
            let signIn = try await Browser(client: client).signIn(query: CrossOriginTests.spaQuery(), login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(signIn)["code"])
            let (status, tokens) = try await Self.crossOrigin(client, CrossOriginTests.redeem(code))
            try #require(status == .ok, "\(tokens)")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            let refresh = [("grant_type", "refresh_token"), ("client_id", "chatr-spa"), ("refresh_token", refreshToken), ("scope", TestSupport.chatScope)]
            let (sameOrigin, refused) = try await client.postForm("/contoso.com/oauth2/v2.0/token", refresh)
            #expect(sameOrigin == .badRequest)
            #expect(refused["error_codes"] == [9002327], "\(refused)")
            #expect(try await Self.crossOrigin(client, refresh).0 == .ok)
            state.advanceClock(seconds: 86_400 - 60)
            #expect(try await Self.crossOrigin(client, refresh).0 == .ok, "still inside its 24 hours")
            state.advanceClock(seconds: 120)
            let (expiredStatus, expired) = try await Self.crossOrigin(client, refresh)
            #expect(expiredStatus == .badRequest)
            #expect(expired["error_codes"] == [700084], "\(expired)")
        }
    }

    @Test("a refresh token redeemed for an SPA's keeps the first one's 24 hours")
    func refreshTokenCarriesOverItsEnd() async throws {
        try await TestSupport.withRouterApp { client, state in
            let signIn = try await Browser(client: client).signIn(query: CrossOriginTests.spaQuery(), login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(signIn)["code"])
            let (status, tokens) = try await Self.crossOrigin(client, CrossOriginTests.redeem(code))
            try #require(status == .ok, "\(tokens)")
            func refresh(_ token: String) -> [(String, String)] {
                [("grant_type", "refresh_token"), ("client_id", "chatr-spa"), ("refresh_token", token), ("scope", TestSupport.chatScope)]
            }
            state.advanceClock(seconds: 23 * 3600)
            let (renewedStatus, renewed) = try await Self.crossOrigin(client, refresh(try #require(tokens["refresh_token"]?.stringValue)))
            try #require(renewedStatus == .ok, "\(renewed)")
            let second = try #require(renewed["refresh_token"]?.stringValue)
            state.advanceClock(seconds: 2 * 3600)
            let (expiredStatus, expired) = try await Self.crossOrigin(client, refresh(second))
            #expect(expiredStatus == .badRequest, "the second refresh token ends when the first did")
            #expect(expired["error_codes"] == [700084], "\(expired)")
        }
    }
}
