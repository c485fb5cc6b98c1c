import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

@Suite("Authorize endpoint and the authorization_code / refresh_token grants")
struct AuthorizationCodeTests {
    @Test("the sign-in page has one form with login, passwd and the request as hidden fields")
    func signInPage() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let page = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(loginHint: "Bob@contoso.com", claims: TestSupport.protapp),
                method: .get)
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            let (forms, fields) = Browser.inputs(of: html)
            #expect(forms == 1)
            #expect(fields["login"] == "Bob@contoso.com")
            #expect(fields["passwd"] == "")
            #expect(fields["state"] == "state-123")
            #expect(fields["claims"] == TestSupport.protapp)
            #expect(fields["code_challenge"] == Browser.challenge)
        }
    }

    @Test("sign-in redirects with code, state and client_info; the code redeems once with PKCE")
    func codeFlow() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let response = try await browser.signIn(query: Browser.authorizeQuery(claims: TestSupport.protapp), login: "bob@contoso.com")
            #expect(response.status == .found)
            #expect(response.headers[.location]?.hasPrefix("http://localhost:5555?") == true)
            let parameters = try Browser.redirectParameters(response)
            #expect(parameters.names == ["code", "client_info", "state"])
            #expect(parameters["state"] == "state-123")
            let code = try #require(parameters["code"])

            let (status, body) = try await browser.redeem(code)
            #expect(status == .ok)
            #expect(body.jwtClaims("id_token")?["nonce"] == "nonce-456")
            #expect(body.jwtClaims("access_token")?["xms_cc"] == ["protapp"])
            #expect(body["client_info"] != nil)

            let (again, reused) = try await browser.redeem(code)
            #expect(again == .badRequest)
            #expect(reused["error"] == "invalid_grant")
            #expect(reused["error_codes"] == [54005])

            let refreshToken = try #require(body["refresh_token"]?.stringValue)
            let (refreshStatus, refreshed) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "refresh_token"), ("client_id", "chatr"), ("refresh_token", refreshToken),
                 ("scope", TestSupport.mamScope), ("client_info", "1")])
            #expect(refreshStatus == .ok)
            #expect(refreshed.jwtClaims("access_token")?["aud"] == "https://msmamservice.api.application")
            let (badStatus, bad) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "refresh_token"), ("client_id", "chatr"), ("refresh_token", "garbage"), ("scope", "openid")])
            #expect(badStatus == .badRequest)
            #expect(bad["error"] == "invalid_grant")
        }
    }

    @Test("a wrong verifier, a missing verifier and an expired code are refused")
    func pkceAndExpiry() async throws {
        try await TestSupport.withRouterApp { client, state in
            let browser = Browser(client: client)
            let (wrong, wrongBody) = try await browser.redeem(try await browser.code(login: "bob@contoso.com"), verifier: "not-the-verifier-at-all-0123456789012345678")
            #expect(wrong == .badRequest)
            #expect(wrongBody["error_codes"] == [501481])
            let (_, missing) = try await browser.redeem(try await browser.code(login: "bob@contoso.com"), verifier: "")
            #expect(missing["error_codes"] == [50148])
            let code = try await browser.code(login: "bob@contoso.com")
            state.advanceClock(seconds: 301)
            let (_, expired) = try await browser.redeem(code)
            #expect(expired["error"] == "invalid_grant")
            #expect(expired["error_codes"] == [70008])
        }
    }

    @Test("CA applies to the code grant: alice with protapp gets 53005")
    func caOnCodeGrant() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let (status, body) = try await browser.redeem(try await browser.code(login: "alice@contoso.com", claims: TestSupport.protapp))
            #expect(status == .badRequest)
            #expect(body["suberror"] == "protection_policy_required")
            #expect(body["adi"] == "alice@contoso.com")
        }
    }

    @Test("cancel, wrong password, redirect URI rules and prompt=none")
    func pageOutcomes() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let cancelled = try await browser.signIn(query: Browser.authorizeQuery(), login: "", password: "", extra: [("cancel", "1")])
            #expect(cancelled.status == .found)
            let cancel = try Browser.redirectParameters(cancelled)
            #expect(cancel["error"] == "access_denied")
            #expect(cancel["error_subcode"] == "cancel")
            #expect(cancel["state"] == "state-123")

            let wrong = try await browser.signIn(query: Browser.authorizeQuery(), login: "bob@contoso.com", password: "bad")
            #expect(wrong.status == .ok)
            #expect(String(buffer: wrong.body).contains("Your account or password is incorrect"))

            let customScheme = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: "msauth.com.contoso.chatr://auth"), method: .get)
            #expect(customScheme.status == .ok)
            let otherPort = try await client.execute(
                uri: "/common/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: "http://localhost:61234/"), method: .get)
            #expect(otherPort.status == .ok)
            for bad in ["https://localhost:5555", "http://evil.example/", "http://localhost:5555/other"] {
                let refused = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: bad), method: .get)
                #expect(refused.status == .badRequest)
                #expect(String(buffer: refused.body).contains("AADSTS50011"))
            }
            let silent = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("prompt", "none")]), method: .get)
            #expect(try Browser.redirectParameters(silent)["error"] == "login_required")
            let badScope = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("scope", "x")]), method: .get)
            #expect(badScope.status == .badRequest)
        }
    }

    @Test("response_mode=form_post answers an auto-posting form with code and state")
    func formPost() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let response = try await browser.signIn(
                query: Browser.authorizeQuery(extra: [("response_mode", "form_post")]), login: "bob@contoso.com")
            #expect(response.status == .ok)
            let (forms, fields) = Browser.inputs(of: String(buffer: response.body))
            #expect(forms == 1)
            #expect(fields["state"] == "state-123")
            #expect(fields["code"]?.hasPrefix("mock-code.") == true)
        }
    }

    @Test("the device verification page completes a device-code sign-in")
    func deviceVerificationPage() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, started) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", "openid api://contoso-chat/Chat.Read")])
            let userCode = try #require(started["user_code"]?.stringValue)
            #expect(started["verification_uri"] == "http://localhost/contoso.com/oauth2/v2.0/deviceauth")
            let page = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/deviceauth", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: FormParameters.encode([("user_code", userCode), ("login", "bob@contoso.com"), ("passwd", "Passw0rd!")])))
            #expect(String(buffer: page.body).contains("You have signed in"))
            let (status, body) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", Issuer.deviceCodeGrantType), ("client_id", "chatr"), ("device_code", started["device_code"]?.stringValue ?? "")])
            #expect(status == .ok)
            #expect(body.jwtClaims("id_token")?["preferred_username"] == "bob@contoso.com")
        }
    }

    @Test("the sign-in sets a session cookie: SSO, prompt=none, prompt=login, other login_hint, logout")
    func singleSignOn() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let browser = Browser(client: client)
            let signedIn = try await browser.signIn(query: Browser.authorizeQuery(), login: "alice@contoso.com")
            let setCookie = try #require(signedIn.headers[.setCookie])
            #expect(setCookie.hasPrefix("mockauth_session="))
            #expect(setCookie.contains("HttpOnly"))
            let cookie: HTTPFields = [.cookie: String(setCookie.split(separator: ";")[0])]
            let get = { (extra: [(String, String)]) in
                try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: extra), method: .get, headers: cookie)
            }
            let sso = try await get([])
            #expect(sso.status == .found)
            let code = try #require(try Browser.redirectParameters(sso)["code"])
            #expect(try await browser.redeem(code).1["error_codes"] == [53009])  // alice, no protapp: CA still applies
            #expect(try Browser.redirectParameters(try await get([("prompt", "none")]))["code"] != nil)
            #expect(try await get([("prompt", "login")]).status == .ok)
            #expect(try await get([("login_hint", "bob@contoso.com")]).status == .ok)

            let logout = try await client.execute(
                uri: "/contoso.com/oauth2/v2.0/logout?post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A5555", method: .get, headers: cookie)
            #expect(logout.status == .found)
            #expect(logout.headers[.location] == "http://localhost:5555")
            #expect(try Browser.redirectParameters(try await get([("prompt", "none")]))["error"] == "login_required")
        }
    }
}
