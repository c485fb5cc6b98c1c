import Foundation
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

@Suite("Token endpoint: password grant, CA evaluation, bad input")
struct TokenGrantTests {
    @Test("bob gets verifiable tokens with xms_cc, client_info and a refresh token")
    func passwordGrantForBob() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (status, body) = try await client.passwordToken("BOB@Contoso.com", claims: TestSupport.protapp)
            #expect(status == .ok)
            #expect(body["token_type"] == "Bearer")
            #expect(body["scope"] == "api://contoso-chat/Chat.Read openid profile offline_access")
            #expect(body["expires_in"] == 3600)
            #expect(body["ext_expires_in"] == 3600)
            #expect(body["refresh_token"]?.stringValue?.isEmpty == false)
            let token = try #require(body["access_token"]?.stringValue)
            let claims = try JWT.verify(token, key: TestSupport.key, audience: "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c", now: Date())
            #expect(claims["upn"] == "bob@contoso.com")
            #expect(claims["preferred_username"] == "bob@contoso.com")
            #expect(claims["tid"] == .string(TestSupport.tenantId))
            #expect(claims["oid"] == "b0b00000-0000-4000-8000-000000000b0b")
            #expect(claims["scp"] == "Chat.Read")
            #expect(claims["ver"] == "2.0")
            #expect(claims["xms_cc"] == ["protapp"])
            #expect(claims["iss"] == .string("http://localhost/\(TestSupport.tenantId)/v2.0"))
            let idClaims = try #require(body.jwtClaims("id_token"))
            #expect(idClaims["aud"] == "chatr")
            let info = try #require(body["client_info"]?.stringValue.flatMap(Base64URL.decode))
            #expect(try JSONValue.parse(info) == ["uid": "b0b00000-0000-4000-8000-000000000b0b", "utid": .string(TestSupport.tenantId)])
        }
    }

    @Test("without capabilities the access token has no xms_cc; .default stands for the API's scopes")
    func noCapabilitiesNoXmsCc() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken("bob@contoso.com")
            #expect(status == .ok)
            #expect(body.jwtClaims("access_token")?["xms_cc"] == nil)
            let (_, defaultBody) = try await client.passwordToken("bob@contoso.com", scope: "api://contoso-chat/.default offline_access")
            #expect(defaultBody["scope"] == "api://contoso-chat/.default offline_access")
            #expect(defaultBody.jwtClaims("access_token")?["scp"] == "Chat.Read")
            #expect(defaultBody["id_token"] == nil)
        }
    }

    @Test("alice declaring protapp gets exactly the AADSTS53005 answer")
    func aliceProtappGets53005() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "password"), ("client_id", "chatr"), ("username", "alice@contoso.com"),
                 ("password", "Passw0rd!"), ("scope", TestSupport.chatScope), ("claims", TestSupport.protapp)],
                headers: [.init("client-request-id")!: "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"])
            #expect(status == .badRequest)
            let object = try #require(body.objectValue)
            #expect(object.keys == ["error", "error_description", "error_codes", "timestamp", "trace_id", "correlation_id", "suberror", "adi"])
            #expect(body["error"] == "unauthorized_client")
            #expect(body["error_codes"] == [53005])
            #expect(body["suberror"] == "protection_policy_required")
            #expect(body["adi"] == "alice@contoso.com")
            #expect(body["correlation_id"] == "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9")
            let description = try #require(body["error_description"]?.stringValue)
            let trace = try #require(body["trace_id"]?.stringValue)
            let timestamp = try #require(body["timestamp"]?.stringValue)
            #expect(description == "AADSTS53005: Application needs to enforce Intune protection policies.\r\nTrace ID: \(trace)\r\nCorrelation ID: 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9\r\nTimestamp: \(timestamp)")
            #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/) != nil)
        }
    }

    @Test("alice without capabilities gets AADSTS53009 invalid_grant without suberror")
    func aliceWithoutCapabilitiesGets53009() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken("alice@contoso.com")
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_grant")
            #expect(body["error_codes"] == [53009])
            #expect(body["suberror"] == nil)
            #expect(body["error_description"]?.stringValue?.hasPrefix("AADSTS53009: Application needs to enforce Intune protection policies.\r\nTrace ID: ") == true)
        }
    }

    @Test("the MAM resource is never blocked; compliance lifts the block")
    func mamScopeAndCompliance() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (mamStatus, mamBody) = try await client.passwordToken("alice@contoso.com", scope: TestSupport.mamScope, claims: TestSupport.protapp)
            #expect(mamStatus == .ok)
            #expect(mamBody.jwtClaims("access_token")?["aud"] == "https://msmamservice.api.application")
            state.markCompliant(AccountApp(upn: "Alice@contoso.com", appId: "chatr"))
            let (status, _) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(status == .ok)
        }
    }

    @Test("bad credentials, unknown client, scope and grant get Entra's errors", arguments: [
        ([("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "nope"), ("scope", "openid")], "invalid_grant", 50126),
        ([("grant_type", "password"), ("client_id", "chatr"), ("username", "zed@contoso.com"), ("password", "Passw0rd!"), ("scope", "openid")], "invalid_grant", 50034),
        ([("grant_type", "password"), ("client_id", "nobody"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"), ("scope", "openid")], "unauthorized_client", 700016),
        ([("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"), ("scope", "api://contoso-chat/Chat.Delete")], "invalid_scope", 70011),
        ([("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"), ("scope", "api://contoso-chat/Chat.Read https://msmamservice.api.application/.default")], "invalid_scope", 28000),
        ([("grant_type", "implicit"), ("client_id", "chatr")], "unsupported_grant_type", 70003),
        ([("client_id", "chatr")], "invalid_request", 900144),
        ([("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"), ("scope", "openid"), ("claims", "{not json")], "invalid_request", 90014),
        ([("grant_type", "client_credentials"), ("client_id", "contoso-daemon"), ("client_secret", "wrong"), ("scope", "api://contoso-chat/.default")], "invalid_client", 7000215),
        ([("grant_type", "client_credentials"), ("client_id", "contoso-daemon"), ("client_secret", "daemon-s3cret"), ("scope", "api://contoso-chat/Chat.Read")], "invalid_scope", 1002012),
    ] as [([(String, String)], String, Int64)])
    func errors(fields: [(String, String)], error: String, code: Int64) async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.postForm("/contoso.com/oauth2/v2.0/token", fields)
            #expect(status == (error == "invalid_client" ? .unauthorized : .badRequest))
            #expect(body["error"] == .string(error))
            #expect(body["error_codes"] == [.int(code)])
            #expect(body["error_description"]?.stringValue?.hasPrefix("AADSTS\(code): ") == true)
        }
    }

    @Test("unknown tenant, repeated parameter, malformed form and oversized body")
    func malformedRequests() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (tenantStatus, tenantBody) = try await client.postForm("/fabrikam.com/oauth2/v2.0/token", [("grant_type", "password")])
            #expect(tenantStatus == .badRequest)
            #expect(tenantBody["error_codes"] == [90002])
            let repeated = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "grant_type=password&grant_type=password"))
            #expect(repeated.status == .badRequest)
            #expect(try JSONValue.parse(Array(repeated.body.readableBytesView))["error_codes"] == [9000411])
            let badPercent = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .post, body: ByteBuffer(string: "grant_type=%zz"))
            #expect(badPercent.status == .badRequest)
            let big = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .post,
                body: ByteBuffer(string: "grant_type=password&x=" + String(repeating: "a", count: 70_000)))
            #expect(big.status == .contentTooLarge)
            #expect(try JSONValue.parse(Array(big.body.readableBytesView))["error"] == "invalid_request")
        }
    }

    @Test("client_credentials gives an app-only token")
    func clientCredentials() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let basic = Data("contoso-daemon:daemon-s3cret".utf8).base64EncodedString()
            let (status, body) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "client_credentials"), ("scope", "api://contoso-chat/.default")],
                headers: [.authorization: "Basic \(basic)"])
            #expect(status == .ok)
            let claims = try #require(body.jwtClaims("access_token"))
            #expect(claims["idtyp"] == "app")
            #expect(claims["azp"] == "contoso-daemon")
            #expect(body["refresh_token"] == nil)
        }
    }
}
