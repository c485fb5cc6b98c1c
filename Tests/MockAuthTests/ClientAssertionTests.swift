import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 2: certificate credentials, checked as Entra checks them.
@Suite("Client assertions (certificate credentials)")
struct ClientAssertionTests {
    static let tokenPath = "/contoso.com/oauth2/v2.0/token"

    /// The token endpoint as discovery names it (the assertion's `aud`).
    static func tokenEndpoint(_ client: any TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/contoso.com/v2.0/.well-known/openid-configuration", method: .get)
        let document = try JSONValue.parse(Array(response.body.readableBytesView))
        return try #require(document["token_endpoint"]?.stringValue)
    }

    static func request(_ client: any TestClientProtocol, _ assertion: String, type: String? = ClientAssertion.type) async throws -> (HTTPResponse.Status, JSONValue) {
        var fields = [
            ("grant_type", "client_credentials"), ("client_id", "contoso-daemon"), ("client_assertion", assertion),
            ("scope", "api://contoso-chat/.default"),
        ]
        if let type { fields.append(("client_assertion_type", type)) }
        return try await client.postForm(tokenPath, fields)
    }

    @Test("RS256 with x5t and PS256 with x5t#S256 both authenticate; azpacr is 2; discovery offers private_key_jwt")
    func accepted() async throws {
        let signer = try AssertionSigner.demo()
        try await TestSupport.withRouterApp { client, _ in
            let audience = try await Self.tokenEndpoint(client)
            for (alg, sha256) in [("RS256", false), ("PS256", true)] {
                let (status, body) = try await Self.request(client, try signer.assertion(audience: audience, alg: alg, sha256Thumbprint: sha256))
                #expect(status == .ok, "\(alg): \(body)")
                #expect(body.jwtClaims("access_token")?["azpacr"] == "2")
                #expect(body.jwtClaims("access_token")?["azp"] == "contoso-daemon")
            }
            // MSAL keeps its signed assertion for minutes: the same one again is accepted.
            let kept = try signer.assertion(audience: audience)
            #expect(try await Self.request(client, kept).0 == .ok)
            #expect(try await Self.request(client, kept).0 == .ok)
            let response = try await client.execute(uri: "/contoso.com/v2.0/.well-known/openid-configuration", method: .get)
            let methods = try JSONValue.parse(Array(response.body.readableBytesView))["token_endpoint_auth_methods_supported"]
            #expect(methods?.arrayValue?.contains("private_key_jwt") == true)
        }
    }

    @Test("each fault gets Entra's code and a message naming it")
    func refused() async throws {
        let signer = try AssertionSigner.demo()
        try await TestSupport.withRouterApp { client, _ in
            let audience = try await Self.tokenEndpoint(client)
            let reused = UUID().uuidString
            #expect(try await Self.request(client, try signer.assertion(audience: audience, jti: reused)).0 == .ok)
            let valid = try signer.assertion(audience: audience)
            let parts = valid.split(separator: ".").map(String.init)
            let tampered = parts[0] + "." + Base64URL.encode(Array(#"{"aud":"x"}"#.utf8)) + "." + parts[2]
            let cases: [(String, String, Int, String)] = [
                ("wrong audience", try signer.assertion(audience: "https://login.microsoftonline.com/common/oauth2/v2.0/token"), 700023, "audience"),
                ("iss is another client", try signer.assertion(audience: audience, claims: ["iss": "chatr-web"]), 700021, "iss"),
                ("sub is another client", try signer.assertion(audience: audience, claims: ["sub": "chatr-web"]), 700021, "sub"),
                ("expired", try signer.assertion(audience: audience, now: Date().addingTimeInterval(-3600)), 700024, "expired"),
                ("not yet valid", try signer.assertion(audience: audience, claims: ["nbf": .int(Int64(Date().timeIntervalSince1970) + 3600)]), 700024, "not valid before"),
                ("unregistered certificate", try signer.assertion(audience: audience, header: ["x5t": "AAAAAAAAAAAAAAAAAAAAAAAAAAA"]), 700027, "not registered"),
                ("no thumbprint", try signer.assertion(audience: audience, header: ["x5t": .null]), 700027, "names no certificate"),
                ("bad signature", tampered, 700027, "signature"),
                ("not a JWT", "not-a-jwt", 50027, "not a signed JWT"),
                ("no jti", try signer.assertion(audience: audience, claims: ["jti": .null]), 50027, "jti"),
                ("a jti used by another assertion", try signer.assertion(audience: audience, lifetime: 900, jti: reused), 50027, "jti"),
            ]
            for (name, assertion, code, words) in cases {
                let (status, body) = try await Self.request(client, assertion)
                #expect(status == .unauthorized, "\(name): \(body)")
                #expect(body["error"] == "invalid_client", "\(name)")
                #expect(body["error_codes"] == [.int(Int64(code))], "\(name): \(body)")
                #expect(body["error_description"]?.stringValue?.contains(words) == true, "\(name): \(body)")
            }
            let (typeStatus, typeBody) = try await Self.request(client, valid, type: nil)
            #expect(typeStatus == .badRequest)
            #expect(typeBody["error_codes"] == [900144])
            // A public client with an assertion stays 700025; a secret client without any credential 7000218.
            let (_, publicBody) = try await client.postForm(Self.tokenPath, [
                ("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"),
                ("scope", "openid"), ("client_assertion", valid), ("client_assertion_type", ClientAssertion.type),
            ])
            #expect(publicBody["error_codes"] == [700025])
        }
    }
}
