import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// Issue 41 point 2: cross-origin token requests only from single-page apps, with CORS headers.
@Suite("Cross-origin token requests")
struct CrossOriginTests {
    static let origin = "http://localhost:3000"

    static func spaQuery() -> String {
        FormParameters.encode([
            ("client_id", "chatr-spa"), ("response_type", "code"), ("redirect_uri", "http://localhost:3000/"),
            ("scope", TestSupport.chatScope), ("state", "s"), ("code_challenge", Browser.challenge), ("code_challenge_method", "S256"),
        ])
    }

    static func redeem(_ code: String) -> [(String, String)] {
        [("grant_type", "authorization_code"), ("client_id", "chatr-spa"), ("code", code),
         ("redirect_uri", "http://localhost:3000/"), ("code_verifier", Browser.verifier)]
    }

    @Test("a token request with Origin from a client without SPA redirect URIs is AADSTS9002326, readable by the page")
    func nonSPAIsRefused() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let response = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .origin: Self.origin],
                body: ByteBuffer(string: FormParameters.encode([
                    ("grant_type", "password"), ("client_id", "chatr"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"),
                    ("scope", TestSupport.chatScope)])))
            #expect(response.status == .badRequest)
            let body = try JSONValue.parse(Array(response.body.readableBytesView))
            #expect(body["error"] == "invalid_request" && body["error_codes"] == [9002326], "\(body)")
            #expect(body["error_description"]?.stringValue?.contains("Request origin: '\(Self.origin)'") == true)
            #expect(response.headers[.accessControlAllowOrigin] == Self.origin)
        }
    }

    @Test("the SPA client signs in, redeems cross-origin with CORS headers, and its code cannot be redeemed without Origin")
    func spaFlow() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let preflight = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .options,
                headers: [.origin: Self.origin, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type,client-request-id"])
            #expect(preflight.status == .ok)
            #expect(preflight.headers[.accessControlAllowOrigin] == Self.origin)
            #expect(preflight.headers[.accessControlAllowMethods] == "POST, OPTIONS")
            #expect(preflight.headers[.accessControlAllowHeaders] == "content-type,client-request-id")

            let first = try await browser.signIn(query: Self.spaQuery(), login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(first)["code"])
            let (status, refused) = try await client.postForm("/contoso.com/oauth2/v2.0/token", Self.redeem(code))
            #expect(status == .badRequest)
            #expect(refused["error_codes"] == [9002327], "\(refused)")

            let second = try await browser.signIn(query: Self.spaQuery(), login: "bob@contoso.com")
            let fresh = try #require(try Browser.redirectParameters(second)["code"])
            let response = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/token", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .origin: Self.origin],
                body: ByteBuffer(string: FormParameters.encode(Self.redeem(fresh))))
            #expect(response.status == .ok)
            #expect(response.headers[.accessControlAllowOrigin] == Self.origin)
            let tokens = try JSONValue.parse(Array(response.body.readableBytesView))
            #expect(tokens["access_token"]?.stringValue != nil)
            // Without Origin there are no CORS headers on an answer.
            let (plain, _) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [("grant_type", "password")])
            #expect(plain == .badRequest)
        }
    }
}
