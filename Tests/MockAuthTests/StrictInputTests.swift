import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Inputs a careful issuer refuses, and what the mock keeps of wrong URLs.
@Suite("Strict inputs")
struct StrictInputTests {
    @Test("a code redemption without redirect_uri is refused before the code is spent (RFC 6749 §4.1.3)")
    func redirectURIIsRequired() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let code = try await browser.code(login: "bob@contoso.com")
            let (status, body) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "authorization_code"), ("client_id", "chatr"), ("code", code), ("code_verifier", Browser.verifier)])
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_request")
            #expect(body["error_codes"] == [900144])
            #expect(body["error_description"]?.stringValue?.contains("'redirect_uri'") == true)
            // Not spent: the same code redeems with the redirect URI.
            let (redeemed, tokens) = try await browser.redeem(code)
            #expect(redeemed == .ok, "\(tokens)")
        }
    }

    @Test("percent-encoded path segments mean what they encode (tenant, UPN); an invalid encoding is named as sent")
    func percentEncodedPathSegments() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (realmStatus, realm) = try await client.sendJSON("/common/userrealm/bob%40contoso.com?api-version=1.0", method: .get)
            #expect(realmStatus == .ok)
            #expect(realm["account_type"] == "Managed" && realm["domain_name"] == "contoso.com")
            let (targeted, _) = try await client.sendJSON("/_admin/users/bob%40contoso.com/ca", ["targeted": true])
            #expect(targeted == .ok)
            #expect(state.directory.user(upn: "bob@contoso.com")?.caTargeted == true)
            let (token, tokens) = try await client.postForm(
                "/contoso%2Ecom/oauth2/v2.0/token",
                [("grant_type", "password"), ("client_id", "chatr"), ("username", "dave@contoso.com"), ("password", "Passw0rd!"),
                 ("scope", TestSupport.chatScope)])
            #expect(token == .ok, "\(tokens)")
            let (unknown, why) = try await client.sendJSON("/_admin/users/bob%ZZcontoso.com/ca", ["targeted": true])
            #expect(unknown == .notFound)
            #expect(why["error_description"]?.stringValue?.contains("bob%ZZcontoso.com") == true, "\(why)")
        }
    }

    @Test("another method than POST on the token and device-code endpoints gets Entra's AADSTS900561")
    func tokenEndpointsOnlyAcceptPOST() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for (path, method) in [("token", HTTPRequest.Method.get), ("token", .put), ("devicecode", .get), ("devicecode", .delete)] {
                let (status, body) = try await client.sendJSON("/contoso.com/oauth2/v2.0/\(path)", method: method)
                #expect(status == .badRequest, "\(method) \(path)")
                #expect(body["error"] == "invalid_request" && body["error_codes"] == [900561], "\(body)")
                #expect(body["error_description"]?.stringValue?.hasPrefix(
                    "AADSTS900561: The endpoint only accepts POST, OPTIONS requests. Received a \(method.rawValue) request.") == true)
            }
            for path in ["token", "devicecode"] {
                let head = try await client.execute(uri: "/contoso.com/oauth2/v2.0/\(path)", method: .head)
                #expect(head.status == .badRequest, "HEAD \(path)")
                let options = try await client.execute(uri: "/contoso.com/oauth2/v2.0/\(path)", method: .options)
                #expect(options.status == .ok && options.headers[.allow] == "POST, OPTIONS" && options.body.readableBytes == 0, "OPTIONS \(path)")
            }
        }
    }

    @Test("an authorize request that cannot be read gets the HTML error page, naming the query string")
    func unreadableAuthorizeRequestsGetThePage() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let base = "/contoso.com/oauth2/v2.0/authorize?client_id=chatr&response_type=code&redirect_uri=http%3A%2F%2Flocalhost%3A5555&scope=openid"
            for (query, says) in [("&state=a&state=b", "AADSTS9000411"), ("&state=%ZZ", "The query string is not a valid form")] {
                let page = try await client.execute(uri: base + query, method: .get)
                #expect(page.status == .badRequest)
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true, "\(query)")
                #expect(String(buffer: page.body).contains(says), "\(query): \(String(buffer: page.body).prefix(300))")
            }
            let posted = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "login=a&login=b"))
            #expect(posted.status == .badRequest)
            #expect(posted.headers[.contentType]?.hasPrefix("text/html") == true)
        }
    }

    @Test("a token or code put in a URL path is recorded as [redacted] in the request log")
    func secretsInPathsAreRedacted() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, tokens) = try await client.passwordToken("bob@contoso.com")
            let token = try #require(tokens["access_token"]?.stringValue)
            _ = try await client.execute(uri: "/mam/v1/enroll/" + token, method: .post)
            _ = try await client.execute(uri: "/contoso.com/oauth2/v2.0/mock-code.AbCdEfGhIjKlMnOp", method: .get)
            _ = try await client.execute(uri: "/contoso.com/oauth2/v2.0/" + String(repeating: "x", count: 80), method: .get)
            let (_, log) = try await client.sendJSON("/_admin/requests", method: .get)
            let paths = (log.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
            #expect(paths.contains("/contoso.com/oauth2/v2.0/token"), "ordinary paths stay: \(paths)")
            #expect(paths.contains("/mam/v1/enroll/[redacted]"), "\(paths)")
            #expect(paths.contains("/contoso.com/oauth2/v2.0/[redacted]"), "\(paths)")
            #expect(!paths.contains { $0.contains("eyJ") || $0.contains("mock-code") || $0.contains("xxxxxxxx") }, "\(paths)")
        }
    }

    @Test("a policyVersion that is not a whole number is a 400, on check-in and on report-compliance")
    func policyVersionMustBeAWholeNumber() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let token = try await MAMServiceTests.mamToken(client, "alice@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: token)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            for route in ["/mam/v1/checkin", "/mam/v1/report-compliance"] {
                for version: JSONValue in ["1", 1.5, true] {
                    let (status, body) = try await client.sendJSON(route, ["enrollmentId": .string(id), "policyVersion": version], bearer: token)
                    #expect(status == .badRequest, "\(route) \(version): \(body)")
                    #expect(body["error_description"]?.stringValue?.contains("policyVersion") == true)
                }
            }
            let (status, reported) = try await client.sendJSON(
                "/mam/v1/report-compliance", ["enrollmentId": .string(id), "policyVersion": 1], bearer: token)
            #expect(status == .ok && reported["complianceStatusName"] == "Compliant", "\(reported)")
        }
    }
}
