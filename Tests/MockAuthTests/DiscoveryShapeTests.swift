import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 13: the discovery document has Entra's members, and its userinfo endpoint works.
@Suite("Discovery as Entra publishes it")
struct DiscoveryShapeTests {
    @Test("the document has Entra's members (userinfo_endpoint, logout flags) and none Entra leaves out")
    func members() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, body) = try await client.sendJSON("/contoso.com/v2.0/.well-known/openid-configuration", method: .get)
            let names = Set(body.objectValue?.keys.map { $0 } ?? [])
            for name in ["userinfo_endpoint", "http_logout_supported", "frontchannel_logout_supported", "cloud_graph_host_name", "rbac_url",
                         "claims_supported", "end_session_endpoint", "device_authorization_endpoint"] {
                #expect(names.contains(name), "\(name)")
            }
            for name in ["grant_types_supported", "code_challenge_methods_supported"] {
                #expect(!names.contains(name), "Entra does not publish \(name)")
            }
            #expect(body["userinfo_endpoint"] == .string("http://localhost/\(TestSupport.tenantId)/openid/userinfo"))
        }
    }

    @Test("userinfo answers sub, names and email for a user token; no or a bad token is 401 invalid_token")
    func userinfo() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, tokens) = try await client.passwordToken("bob@contoso.com")
            let token = try #require(tokens["access_token"]?.stringValue)
            let (status, info) = try await client.sendJSON("/contoso.com/openid/userinfo", method: .get, bearer: token)
            #expect(status == .ok)
            #expect(info["sub"] == tokens.jwtClaims("id_token")?["sub"])
            #expect(info["name"] == "Bob Brandt" && info["given_name"] == "Bob" && info["family_name"] == "Brandt")
            #expect(info["email"] == "bob@contoso.com")
            for bearer in [nil, "garbage", token + "x"] {
                let response = try await client.execute(
                    uri: "/contoso.com/openid/userinfo", method: .get,
                    headers: bearer.map { [.authorization: "Bearer \($0)"] } ?? [:])
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix(#"Bearer error="invalid_token""#) == true)
            }
            state.advanceClock(seconds: 3600 + 120)
            let expired = try await client.execute(uri: "/contoso.com/openid/userinfo", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(expired.status == .unauthorized)
        }
    }
}
