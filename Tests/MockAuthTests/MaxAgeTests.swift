import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 5: `max_age` asks for the password again when the session's is older, and the
/// id token then carries `auth_time` (OIDC Core §3.1.2.1).
@Suite("max_age and auth_time")
struct MaxAgeTests {
    @Test("a sign-in with max_age gets auth_time; an older session shows the page again, a younger one signs in")
    func maxAge() async throws {
        try await TestSupport.withRouterApp { client, state in
            let browser = Browser(client: client)
            let before = Int64(state.now().timeIntervalSince1970)
            let signIn = try await browser.signIn(query: Browser.authorizeQuery(extra: [("max_age", "60")]), login: "bob@contoso.com")
            #expect(signIn.status == .found)
            let after = Int64(state.now().timeIntervalSince1970)
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let (_, first) = try await browser.redeem(try #require(try Browser.redirectParameters(signIn)["code"]))
            let authTime = try #require(first.jwtClaims("id_token")?["auth_time"]?.intValue)
            #expect((before...after).contains(authTime), "auth_time is when the password was entered")

            state.advanceClock(seconds: 120)
            let stale = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("max_age", "60")]), method: .get,
                headers: [.cookie: cookie])
            #expect(stale.status == .ok, "a session older than max_age must show the sign-in page")
            #expect(Browser.inputs(of: String(buffer: stale.body)).fields["max_age"] == "60")
            let silent = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("max_age", "60"), ("prompt", "none")]),
                method: .get, headers: [.cookie: cookie])
            #expect(try Browser.redirectParameters(silent)["error"] == "login_required")

            let fresh = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("max_age", "600")]), method: .get,
                headers: [.cookie: cookie])
            #expect(fresh.status == .found)
            let (_, second) = try await browser.redeem(try #require(try Browser.redirectParameters(fresh)["code"]))
            #expect(second.jwtClaims("id_token")?["auth_time"]?.intValue == authTime, "single sign-on keeps the password's time")

            let plain = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(), method: .get, headers: [.cookie: cookie])
            let (_, third) = try await browser.redeem(try #require(try Browser.redirectParameters(plain)["code"]))
            #expect(third.jwtClaims("id_token") != nil)
            #expect(third.jwtClaims("id_token")?["auth_time"] == nil, "no max_age, no auth_time")
        }
    }

    @Test("max_age that is not a whole number of seconds is refused to the redirect URI")
    func badMaxAge() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let page = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("max_age", "-5")]), method: .get)
            #expect(try Browser.redirectParameters(page)["error"] == "invalid_request")
        }
    }
}
