import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 4: an admin revocation ends the browser session and the codes issued before it.
@Suite("Revocation means revocation")
struct RevocationTests {
    @Test("after revoke-refresh-tokens the session cookie no longer signs in silently and an earlier code is AADSTS50173")
    func revokeEndsSessionAndCodes() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let signedIn = try await browser.signIn(query: Browser.authorizeQuery(), login: "bob@contoso.com")
            let cookie = try #require(signedIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let pending = try #require(try Browser.redirectParameters(signedIn)["code"])
            let silentQuery = Browser.authorizeQuery(extra: [("prompt", "none")])
            let before = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + silentQuery, method: .get, headers: [.cookie: cookie])
            #expect(try Browser.redirectParameters(before)["code"] != nil, "the session signs in silently before")

            let (revoked, _) = try await client.sendJSON("/_admin/users/bob@contoso.com/revoke-refresh-tokens")
            #expect(revoked == .ok)
            let after = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + silentQuery, method: .get, headers: [.cookie: cookie])
            #expect(try Browser.redirectParameters(after)["error"] == "login_required")
            let (status, body) = try await browser.redeem(pending)
            #expect(status == .badRequest && body["error"] == "invalid_grant" && body["error_codes"] == [50173], "\(body)")
            // A code issued after the revocation is fine.
            let (fresh, tokens) = try await browser.redeem(try await browser.code(login: "bob@contoso.com"))
            #expect(fresh == .ok, "\(tokens)")
        }
    }
}
