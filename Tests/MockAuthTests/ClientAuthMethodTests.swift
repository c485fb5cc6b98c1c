import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 8: one client authentication method a request (RFC 6749 §2.3).
@Suite("One client authentication method a request")
struct ClientAuthMethodTests {
    static let basic: HTTPFields = [.authorization: "Basic " + Data("contoso-daemon:daemon-s3cret".utf8).base64EncodedString()]
    static let grant = [("grant_type", "client_credentials"), ("scope", "api://contoso-chat/.default")]

    @Test("Basic plus a body secret, Basic plus an assertion, or a secret plus an assertion is invalid_request")
    func twoMethodsAreRefused() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let cases: [([(String, String)], HTTPFields)] = [
                ([("client_secret", "daemon-s3cret")], Self.basic),
                ([("client_secret", "wrong")], Self.basic),
                ([("client_id", "contoso-daemon"), ("client_secret", "")], Self.basic),
                ([("client_assertion", "eyJ.x.y"), ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")], Self.basic),
                ([("client_id", "contoso-daemon"), ("client_secret", "daemon-s3cret"), ("client_assertion", "eyJ.x.y")], [:]),
            ]
            for (fields, headers) in cases {
                let (status, body) = try await client.postForm("/contoso.com/oauth2/v2.0/token", Self.grant + fields, headers: headers)
                #expect(status == .badRequest, "\(fields)")
                #expect(body["error"] == "invalid_request", "\(body)")
                #expect(body["error_description"]?.stringValue?.contains("more than one authentication method") == true)
            }
        }
    }

    @Test("each method alone still works")
    func oneMethodPasses() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (basic, _) = try await client.postForm("/contoso.com/oauth2/v2.0/token", Self.grant, headers: Self.basic)
            #expect(basic == .ok)
            let (post, _) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token", Self.grant + [("client_id", "contoso-daemon"), ("client_secret", "daemon-s3cret")])
            #expect(post == .ok)
            let (withId, _) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token", Self.grant + [("client_id", "contoso-daemon")], headers: Self.basic)
            #expect(withId == .ok)
        }
    }
}
