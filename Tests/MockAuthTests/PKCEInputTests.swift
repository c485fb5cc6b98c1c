import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 3: PKCE values outside RFC 7636's shapes are refused, as Entra refuses them.
@Suite("PKCE input shapes")
struct PKCEInputTests {
    static func query(challenge: String, method: String) -> String {
        FormParameters.encode([
            ("client_id", "chatr"), ("response_type", "code"), ("redirect_uri", "http://localhost:5555"),
            ("scope", TestSupport.chatScope), ("state", "s"), ("code_challenge", challenge), ("code_challenge_method", method),
        ])
    }

    @Test("a challenge of the wrong size or alphabet is AADSTS501491 at authorize, sent to the redirect URI")
    func challengeShapes() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let padded = Browser.challenge + "="
            let cases: [(String, String)] = [
                (String(repeating: "a", count: 42), "plain"), (String(repeating: "a", count: 129), "plain"),
                (String(repeating: "a", count: 42) + " ", "plain"), (padded, "S256"), ("short", "S256"),
                (String(repeating: "a", count: 44), "S256"), (String(repeating: "é", count: 43), "plain"),
            ]
            for (challenge, method) in cases {
                let response = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Self.query(challenge: challenge, method: method), method: .get)
                #expect(response.status == .found, "\(challenge)")
                let parameters = try Browser.redirectParameters(response)
                #expect(parameters["error"] == "invalid_request", "\(challenge)")
                #expect(parameters["error_description"]?.hasPrefix("AADSTS501491:") == true, "\(challenge)")
            }
            for (challenge, method) in [(String(repeating: "a", count: 43), "plain"), (String(repeating: "~", count: 128), "plain"), (Browser.challenge, "S256")] {
                let page = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Self.query(challenge: challenge, method: method), method: .get)
                #expect(page.status == .ok, "\(challenge)")
            }
        }
    }

    @Test("a verifier outside 43–128 unreserved characters is refused even when its S256 hash matches")
    func verifierShape() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            for verifier in ["has a space but is long enough to pass the length rule", String(repeating: "v", count: 129)] {
                let challenge = Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
                let response = try await browser.signIn(query: Self.query(challenge: challenge, method: "S256"), login: "bob@contoso.com")
                let code = try #require(try Browser.redirectParameters(response)["code"])
                let (status, body) = try await browser.redeem(code, verifier: verifier)
                #expect(status == .badRequest)
                #expect(body["error"] == "invalid_grant" && body["error_codes"] == [501481], "\(body)")
                #expect(body["error_description"]?.stringValue?.contains("RFC 7636") == true)
            }
        }
    }
}
