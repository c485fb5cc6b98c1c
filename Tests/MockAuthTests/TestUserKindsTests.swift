import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 12: the kinds of users Entra has that apps must cope with.
@Suite("MFA and disabled test users")
struct TestUserKindsTests {
    @Test("erin needs MFA: the password grant is AADSTS50076 basic_action; the interactive sign-in issues tokens")
    func mfaUser() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken("erin@contoso.com")
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_grant" && body["error_codes"] == [50076] && body["suberror"] == "basic_action", "\(body)")
            #expect(body["error_description"]?.stringValue?.contains("'api://contoso-chat'") == true)
            let (wrong, refused) = try await client.passwordToken("erin@contoso.com", password: "nope")
            #expect(wrong == .badRequest && refused["error_codes"] == [50126], "a wrong password is told first")
            let browser = Browser(client: client)
            let (redeemed, tokens) = try await browser.redeem(try await browser.code(login: "erin@contoso.com"))
            #expect(redeemed == .ok, "\(tokens)")
            #expect(tokens.jwtClaims("access_token")?["upn"] == "erin@contoso.com")
        }
    }

    @Test("frank is disabled: AADSTS50057 on the password grant, the sign-in page, the device page and a refresh")
    func disabledUser() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (status, body) = try await client.passwordToken("frank@contoso.com")
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_grant" && body["error_codes"] == [50057], "\(body)")
            let page = try await Browser(client: client).signIn(query: Browser.authorizeQuery(), login: "frank@contoso.com")
            #expect(page.status == .ok && page.headers[.location] == nil)
            #expect(String(buffer: page.body).contains("AADSTS50057"))
            // Disabled after a refresh token was issued: the refresh is refused too.
            _ = state.updateUser(upn: "bob@contoso.com") { $0.accountEnabled = true }
            let (_, tokens) = try await client.passwordToken("bob@contoso.com")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            _ = state.updateUser(upn: "bob@contoso.com") { $0.accountEnabled = false }
            let (refreshStatus, refreshed) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "refresh_token"), ("client_id", "chatr"), ("refresh_token", refreshToken), ("scope", TestSupport.chatScope)])
            #expect(refreshStatus == .badRequest && refreshed["error_codes"] == [50057], "\(refreshed)")
        }
    }
}
