import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52: what Entra refuses, the mock refuses too (items 12 and 13).
@Suite("Held to Entra's refusals: PKCE downgrade, one app's MAM token")
struct EntraRefusalsTests {
    @Test("a code issued without code_challenge is refused when redeemed with a code_verifier; without one it redeems")
    func pkceDowngrade() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let query = Browser.authorizeQuery().split(separator: "&").filter { !$0.hasPrefix("code_challenge") }.joined(separator: "&")
            let first = try await browser.signIn(query: query, login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(first)["code"])
            let (status, body) = try await browser.redeem(code)
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_grant")
            #expect(body["error_description"]?.stringValue?.contains("RFC 9700") == true, "\(body)")

            let second = try await browser.signIn(query: query, login: "bob@contoso.com")
            let plain = try #require(try Browser.redirectParameters(second)["code"])
            let (okStatus, ok) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "authorization_code"), ("client_id", "chatr"), ("code", plain),
                ("redirect_uri", "http://localhost:5555"), ("scope", TestSupport.chatScope),
            ])
            #expect(okStatus == .ok, "\(ok)")
        }
    }

    @Test("enroll with another app's appId than the token's client is refused (403); the token's own app enrolls")
    func enrollOnlyOwnApp() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, body) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope)
            let token = try #require(body["access_token"]?.stringValue)
            let (status, refused) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr-gov"], bearer: token)
            #expect(status == .forbidden)
            #expect(refused["error"] == "access_denied")
            #expect(state.enrollments.isEmpty)
            let (okStatus, enrolled) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: token)
            #expect(okStatus == .ok)
            #expect(enrolled["status"] == 100)
            let (_, implicit) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(implicit["status"] == 208)
        }
    }

    @Test("another app's token neither checks in, reports nor unenrolls an app's enrollment (213); its own app's does")
    func enrollmentAnswersItsOwnAppOnly() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, chatr) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope)
            let own = try #require(chatr["access_token"]?.stringValue)
            let (_, gov) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", "chatr-gov"), ("username", "bob@contoso.com"), ("password", "Passw0rd!"),
                ("scope", TestSupport.mamScope),
            ])
            let other = try #require(gov["access_token"]?.stringValue, "\(gov)")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: own)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            for route in ["report-compliance", "checkin", "unenroll"] {
                let (status, answer) = try await client.sendJSON("/mam/v1/\(route)", ["enrollmentId": .string(id)], bearer: other)
                #expect(status == .ok && answer["status"] == 213, "\(route) with chatr-gov's token: \(answer)")
            }
            #expect(state.enrollments.count == 1, "the enrollment is still there")
            let (_, report) = try await client.sendJSON("/mam/v1/report-compliance", ["enrollmentId": .string(id)], bearer: own)
            #expect(report["complianceStatus"] == 0, "\(report)")
        }
    }
}

extension EntraRefusalsTests {
    @Test("prompt=none with a session never consents: consent_required (65001) to the redirect URI, no code")
    func promptNoneNeverConsents() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let signIn = try await browser.signIn(query: Browser.authorizeQuery(), login: "bob@contoso.com")
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let write = "api://contoso-chat/Chat.Write openid profile offline_access"
            let silent = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(scope: write, extra: [("prompt", "none")]),
                method: .get, headers: [.cookie: cookie])
            let parameters = try Browser.redirectParameters(silent)
            #expect(parameters["error"] == "consent_required", "\(silent.headers[.location] ?? "")")
            #expect(parameters["code"] == nil)
            #expect(parameters["error_description"]?.hasPrefix("AADSTS65001") == true)
            // A scope consented already still signs in silently.
            let granted = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("prompt", "none")]), method: .get,
                headers: [.cookie: cookie])
            #expect(try Browser.redirectParameters(granted)["code"] != nil)
        }
    }
}
