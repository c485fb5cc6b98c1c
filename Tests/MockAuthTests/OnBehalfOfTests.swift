import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 3: on-behalf-of. The demo API's registration (`c4a7e2d9-…`, secret
/// `chat-api-s3cret`) exchanges a user's token for the API for a Microsoft Graph token.
@Suite("On-behalf-of (jwt-bearer)")
struct OnBehalfOfTests {
    static let middleTier = "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c"

    static func exchange(_ client: any TestClientProtocol, _ assertion: String, scope: String = "User.Read offline_access") async throws -> (HTTPResponse.Status, JSONValue) {
        try await client.postForm("/contoso.com/oauth2/v2.0/token", [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", middleTier),
            ("client_secret", "chat-api-s3cret"), ("assertion", assertion), ("requested_token_use", "on_behalf_of"),
            ("scope", scope),
        ])
    }

    static func userToken(_ client: any TestClientProtocol, _ upn: String, scope: String = "api://contoso-chat/Chat.Read") async throws -> String {
        let (status, body) = try await client.passwordToken(upn, scope: scope, claims: TestSupport.protapp)
        try #require(status == .ok, "\(body)")
        return try #require(body["access_token"]?.stringValue)
    }

    @Test("the user's token for the API becomes a Graph token for the same user, with its xms_cc")
    func exchanges() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await Self.exchange(client, try await Self.userToken(client, "bob@contoso.com"))
            #expect(status == .ok, "\(body)")
            let claims = try #require(body.jwtClaims("access_token"))
            #expect(claims["aud"] == "00000003-0000-0000-c000-000000000000")
            #expect(claims["azp"] == .string(Self.middleTier))
            #expect(claims["oid"] == "b0b00000-0000-4000-8000-000000000b0b")
            #expect(claims["scp"] == "User.Read")
            #expect(claims["xms_cc"] == ["protapp"])
            #expect(claims["azpacr"] == "1")
            #expect(body["refresh_token"] != nil)
        }
    }

    @Test("a token for another audience (500131), an expired one (500133), a forged one (50013) are refused")
    func refusesAssertions() async throws {
        try await TestSupport.withRouterApp { client, state in
            let mam = try await Self.userToken(client, "bob@contoso.com", scope: TestSupport.mamScope)
            let (wrongStatus, wrong) = try await Self.exchange(client, mam)
            #expect(wrongStatus == .badRequest)
            #expect(wrong["error"] == "invalid_grant")
            #expect(wrong["error_codes"] == [500131])
            let token = try await Self.userToken(client, "bob@contoso.com")
            let forged = token.dropLast(4) + "AAAA"
            #expect(try await Self.exchange(client, String(forged)).1["error_codes"] == [50013])
            state.advanceClock(seconds: 7200)
            #expect(try await Self.exchange(client, token).1["error_codes"] == [500133])
            let (_, missing) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", Self.middleTier),
                ("client_secret", "chat-api-s3cret"), ("assertion", token), ("scope", "User.Read"),
            ])
            #expect(missing["error_codes"] == [900144])
        }
    }

    @Test("CA for the user's app reaches the middle tier as 53005 with a claims challenge")
    func conditionalAccess() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.userToken(client, "bob@contoso.com")
            state.updateUser(upn: "bob@contoso.com") { $0.caTargeted = true }
            let (status, body) = try await Self.exchange(client, token)
            #expect(status == .badRequest)
            #expect(body["error"] == "unauthorized_client")
            #expect(body["suberror"] == "protection_policy_required")
            #expect(body["error_codes"] == [53005])
            #expect(body["adi"] == "bob@contoso.com")
            let challenge = try JSONValue.parse(try #require(body["claims"]?.stringValue))
            #expect(challenge["access_token"]?["capolids"]?["values"]?[0] == .string(ConditionalAccess.policyId))
        }
    }

    @Test("the middle tier's own consent is asked for (65001 consent_required)")
    func consent() async throws {
        var fixtures = try TestSupport.fixtures()
        let graph = try #require(fixtures.apis.firstIndex { $0.appId == GraphScopeTests.graphAppId })
        fixtures.apis[graph].consentRequiredScopes = ["Mail.Send"]
        let (app, _) = try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: TestSupport.logger)
        try await app.test(.router) { client in
            let (status, body) = try await Self.exchange(client, try await Self.userToken(client, "bob@contoso.com"), scope: "Mail.Send")
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [65001])
            #expect(body["suberror"] == "consent_required")
        }
    }
}
