import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 1: a scope without a resource is a Microsoft Graph scope, as at Entra.
@Suite("Resource-less scopes are Microsoft Graph's")
struct GraphScopeTests {
    static let graphAppId = "00000003-0000-0000-c000-000000000000"

    @Test("User.Read and openid profile User.Read get a Graph token; the answer names the scope short")
    func graphScopes() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for scope in ["User.Read", "openid profile User.Read", "https://graph.microsoft.com/User.Read offline_access"] {
                let (status, body) = try await client.passwordToken("bob@contoso.com", scope: scope)
                #expect(status == .ok, "\(scope): \(body)")
                let claims = try #require(body.jwtClaims("access_token"))
                #expect(claims["aud"] == .string(Self.graphAppId), "\(scope)")
                #expect(claims["scp"] == "User.Read", "\(scope)")
                let granted = (body["scope"]?.stringValue ?? "").split(separator: " ").map(String.init)
                #expect(granted.contains("User.Read"), "\(scope): \(granted)")
                #expect(scope.contains("openid") == (body["id_token"] != nil))
            }
        }
    }

    @Test("a short name that is not Graph's, or Graph with another resource, is refused")
    func notGraph() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken("bob@contoso.com", scope: "Chat.Read")
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [70011])
            let (_, mixed) = try await client.passwordToken("bob@contoso.com", scope: "User.Read api://contoso-chat/Chat.Read")
            #expect(mixed["error_codes"] == [28000])
        }
    }

    @Test("without Graph in the fixture, User.Read is an unknown scope (70011)")
    func fixtureWithoutGraph() async throws {
        var fixtures = try TestSupport.fixtures()
        fixtures.apis.removeAll { $0.appId == Self.graphAppId }
        let (app, _) = try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: TestSupport.logger)
        try await app.test(.router) { client in
            let (status, body) = try await client.passwordToken("bob@contoso.com", scope: "openid User.Read")
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [70011])
        }
    }
}
