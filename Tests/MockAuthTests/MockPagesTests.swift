import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// The pages mockauth shows a person, by HTTP (no browser): the sign-in page (labels, names,
/// errors, cancel), the device-code page and `GET /_admin/ui`; everything escaped, nothing
/// secret shown. `EndToEndTests/MockPagesBrowserTests` looks at them in headless Chromium.
@Suite("Pages for people: the sign-in page, the device page and /_admin/ui")
struct MockPagesTests {
    static let hostile = #"<script>alert("x")</script>"#

    /// A router app built from the demo fixtures after `change`.
    static func withApp(
        _ change: (inout Fixtures) -> Void = { _ in }, _ body: @Sendable (any TestClientProtocol, MockState) async throws -> Void
    ) async throws {
        var fixtures = try TestSupport.fixtures()
        change(&fixtures)
        let (app, state) = try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: TestSupport.logger)
        try await app.test(.router) { client in try await body(client, state) }
    }

    static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> (TestResponse, String) {
        let response = try await client.execute(uri: uri, method: .get)
        return (response, String(buffer: response.body))
    }

    static func post(_ client: any TestClientProtocol, _ uri: String, _ fields: [(String, String)]) async throws -> (TestResponse, String) {
        let response = try await client.execute(
            uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: FormParameters.encode(fields)))
        return (response, String(buffer: response.body))
    }

    /// The page's form fields as a browser would post them, with `changes` applied.
    static func submission(_ page: String, _ changes: [(String, String)]) -> [(String, String)] {
        var fields = Browser.inputs(of: page).fields
        for (name, value) in changes { fields[name] = value }
        return fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Parameters of a redirect's query or fragment.
    static func redirected(_ response: TestResponse, separator: Character = "?") throws -> FormParameters {
        let location = response.headers[.location] ?? ""
        return try FormParameters.parse(location.split(separator: separator, maxSplits: 1).dropFirst().first.map(String.init) ?? "")
    }

    @Test("the sign-in page names app and tenant, labels its fields, and is self-contained HTML")
    func signInPageLooksLikeOne() async throws {
        try await Self.withApp { client, _ in
            let (response, page) = try await Self.get(client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery())
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.contains("<title>Sign in to your account</title>"))
            #expect(page.contains(#"<h1 id="title">Sign in</h1>"#))
            #expect(page.contains(#"<strong id="app-name">Chatr (managed chat app)</strong>"#), "the app registration's display name")
            #expect(page.contains(#"id="tenant-name">Contoso</span>"#) && page.contains("Contoso (contoso.com)"), "the tenant")
            #expect(page.contains(#"<label for="login">Email address</label>"#))
            #expect(page.contains(#"<label for="passwd">Password</label>"#))
            #expect(page.contains(#"<input type="email" name="login" value="" id="login""#))
            #expect(page.contains(#"<input type="password" name="passwd" value="" id="passwd""#))
            #expect(!page.contains(#"id="error""#), "no error before an attempt")
            // Sign in first (what Enter presses), then Cancel, which skips the form's validation.
            let signIn = try #require(page.range(of: #"<button type="submit" name="signin" value="1""#))
            let cancel = try #require(page.range(of: #"<button type="submit" name="cancel" value="1""#))
            #expect(signIn.lowerBound < cancel.lowerBound)
            #expect(page[cancel.lowerBound...].prefix { $0 != ">" }.contains("formnovalidate"))
            // Offline: inline CSS, no script, nothing fetched from elsewhere.
            #expect(page.contains("<style>"))
            for external in ["<script", "src=", "http://fonts", "https://", "@import", "url("] {
                #expect(!page.contains(external), "\(external)")
            }
            #expect(Browser.inputs(of: page).forms == 1)
        }
    }

    @Test("names, the login hint and the request's fields are HTML-escaped")
    func everythingIsEscaped() async throws {
        try await Self.withApp({ fixtures in
            fixtures.clients[0].displayName = Self.hostile
            fixtures.tenant.displayName = "Contoso & <b>Sons</b>"
        }) { client, _ in
            let query = FormParameters.encode([
                ("client_id", "chatr"), ("response_type", "code"), ("redirect_uri", "http://localhost:5555"),
                ("scope", TestSupport.chatScope), ("state", "'><script>x</script>"), ("login_hint", #""><img src=x onerror=alert(1)>"#),
            ])
            let (response, page) = try await Self.get(client, "/contoso.com/oauth2/v2.0/authorize?" + query)
            #expect(response.status == .ok)
            #expect(!page.contains("<script"), "no script from a name or a parameter")
            #expect(!page.contains("<img") && !page.contains("<b>"))
            #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), "the app's name, escaped")
            #expect(page.contains("Contoso &amp; &lt;b&gt;Sons&lt;/b&gt;"), "the tenant's name, escaped")
            #expect(page.contains(#"value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;""#), "the login hint, escaped")
            #expect(page.contains(#"name="state" value="&#39;&gt;&lt;script&gt;x&lt;/script&gt;""#), "a hidden field, escaped")
            #expect(page.contains(#"data-initial="C""#), "the tenant's initial")
            // A failed attempt shows what was typed, escaped.
            let (again, retry) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(page, [("login", Self.hostile), ("passwd", "x")]))
            #expect(again.status == .ok)
            #expect(!retry.contains("<script"))
            #expect(retry.contains(#"name="login" value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;""#))
        }
    }

    @Test("a failed sign-in shows the page again with the error, the username kept and no redirect")
    func failedAttemptsShowTheError() async throws {
        try await Self.withApp { client, _ in
            let (_, page) = try await Self.get(client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery())
            let (wrong, wrongPage) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(page, [("login", "bob@contoso.com"), ("passwd", "not-it")]))
            #expect(wrong.status == .ok && wrong.headers[.location] == nil)
            #expect(wrongPage.contains(#"<p id="error" class="message error" role="alert">Your account or password is incorrect. (AADSTS50126)</p>"#))
            #expect(wrongPage.contains(#"name="login" value="bob@contoso.com""#), "the username kept")
            #expect(wrongPage.contains(#"<input type="password" name="passwd" value="""#) && !wrongPage.contains("not-it"), "the password not sent back")
            #expect(wrongPage.contains(#"aria-invalid="true" aria-describedby="error""#))
            #expect(wrongPage.contains(#"name="state" value="state-123""#), "the request still carried")
            let fields = Browser.inputs(of: wrongPage).fields
            #expect(fields["code_challenge"] == Browser.challenge)

            let (unknown, unknownPage) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(page, [("login", "zed@contoso.com"), ("passwd", "Passw0rd!")]))
            #expect(unknown.status == .ok && unknown.headers[.location] == nil)
            #expect(unknownPage.contains("This account does not exist in the Contoso directory"))
            #expect(unknownPage.contains("(AADSTS50034)"))

            // Then the right password: the code.
            let (done, _) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(wrongPage, [("login", "bob@contoso.com"), ("passwd", "Passw0rd!")]))
            #expect(done.status == .found)
            #expect(try Self.redirected(done)["code"] != nil)
        }
    }

    @Test("Cancel answers access_denied with the state in each response mode, whatever was typed")
    func cancelReturnsAccessDenied() async throws {
        try await Self.withApp { client, state in
            let (_, page) = try await Self.get(client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery())
            let cancel = Self.submission(page, [("login", "bob@contoso.com"), ("passwd", "Passw0rd!"), ("cancel", "1")])
            let (query, _) = try await Self.post(client, "/contoso.com/oauth2/v2.0/authorize", cancel)
            #expect(query.status == .found)
            #expect(query.headers[.location]?.hasPrefix("http://localhost:5555?error=access_denied&") == true)
            let parameters = try Self.redirected(query)
            #expect(parameters["error"] == "access_denied" && parameters["error_subcode"] == "cancel" && parameters["state"] == "state-123")
            #expect(parameters["code"] == nil)
            #expect(query.headers[.setCookie] == nil, "no session")
            #expect(state.issuedSecrets().isEmpty, "no code issued")

            let (_, fragmentPage) = try await Self.get(
                client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("response_mode", "fragment")]))
            let (fragment, _) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(fragmentPage, [("cancel", "1")]))
            #expect(try Self.redirected(fragment, separator: "#")["error"] == "access_denied")

            let (_, postPage) = try await Self.get(
                client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(extra: [("response_mode", "form_post")]))
            let (relay, relayPage) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/authorize", Self.submission(postPage, [("cancel", "1")]))
            #expect(relay.status == .ok)
            #expect(relayPage.contains(#"<form method="post" action="http://localhost:5555">"#))
            #expect(Browser.inputs(of: relayPage).fields["error"] == "access_denied")
            #expect(Browser.inputs(of: relayPage).fields["state"] == "state-123")
        }
    }

    @Test("the error page and the device page share the look; the device page labels its fields")
    func errorAndDevicePages() async throws {
        try await Self.withApp { client, _ in
            let (refused, error) = try await Self.get(
                client, "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: "http://evil.example/"))
            #expect(refused.status == .badRequest)
            #expect(error.contains(#"<p id="error" class="message error" role="alert" data-error="invalid_request">AADSTS50011: "#))
            #expect(error.contains("<style>") && error.contains(#"class="card""#))

            let (device, page) = try await Self.get(client, "/contoso.com/oauth2/v2.0/deviceauth")
            #expect(device.status == .ok && device.headers[.contentType] == "text/html; charset=utf-8")
            for (field, label) in [("user_code", "Code"), ("login", "Email address"), ("passwd", "Password")] {
                #expect(page.contains(#"<label for="\#(field)">\#(label)</label>"#), "\(field)")
                #expect(page.contains(#"name="\#(field)" value="" id="\#(field)""#), "\(field)")
            }
            #expect(page.contains(#"id="tenant-name">Contoso</span>"#) && page.contains("<style>"))
            let (_, wrong) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/deviceauth", [("user_code", "NOPE"), ("login", "bob@contoso.com"), ("passwd", "bad")])
            #expect(wrong.contains(#"<p id="message" class="message error" role="alert">Your account or password is incorrect.</p>"#))
            let (_, unknownCode) = try await Self.post(
                client, "/contoso.com/oauth2/v2.0/deviceauth", [("user_code", "NOPE"), ("login", "bob@contoso.com"), ("passwd", "Passw0rd!")])
            #expect(unknownCode.contains(#"class="message error" role="alert">That code is not valid or has expired."#))
        }
    }

    @Test("/_admin/ui shows users, assignments, policy, enrollments, faults and the log as HTML")
    func adminUIShowsTheState() async throws {
        try await Self.withApp { client, state in
            _ = try await client.sendJSON("/_admin/users/carol@contoso.com/ca", ["targeted": true])
            _ = try await client.sendJSON("/_admin/users/dave@contoso.com/wipe", ["appId": "chatr"])
            _ = try await client.sendJSON("/_admin/policy/allowed-accounts", method: .put, ["allowedAccounts": ["alice@contoso.com"]])
            let enrollment = state.seedEnrollment(AccountApp(upn: "bob@contoso.com", appId: "chatr"))
            state.markCompliant(AccountApp(upn: "bob@contoso.com", appId: "chatr"))
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok)
            let (created, _) = try await client.sendJSON("/_admin/faults", ["route": "mam.enroll", "count": 2, "status": 503, "retryAfter": 9])
            #expect(created == .created)

            let (response, page) = try await Self.get(client, "/_admin/ui")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<style>") && !page.contains("<script") && !page.contains("src="))
            for (id, title) in [
                ("applications", "Applications"), ("users", "Users"), ("conditional-access", "Conditional access"),
                ("mam-policy", "MAM policy"), ("enrollments", "Enrollments"), ("faults", "Armed faults"), ("requests", "Request log"),
            ] {
                #expect(page.contains(#"<h2 id="\#(id)-title">\#(title)</h2>"#), "\(title)")
            }
            for text in [
                "alice@contoso.com", "Alice Anders", "a11ce000-0000-4000-8000-00000000a11c", "pol-chatr", enrollment,
                #"<dd id="allowed-accounts"><code>alice@contoso.com</code></dd>"#, "<code>mam.enroll</code>", "9 s",
                "<code>/contoso.com/oauth2/v2.0/token</code>", "<code>password</code>",
            ] {
                #expect(page.contains(text), "\(text)")
            }
            // Its own request is not logged (admin), and no secret is shown.
            #expect(!state.requestLogEntries().contains { $0.path.hasPrefix("/_admin") })
            for secret in ["Passw0rd!", "daemon-s3cret", "web-s3cret"] {
                #expect(!page.contains(secret), "\(secret)")
            }
        }
    }

    @Test("/_admin/ui shows no code or token and escapes what users typed and fixtures name")
    func adminUIShowsNoSecrets() async throws {
        try await Self.withApp({ fixtures in
            fixtures.users[1].displayName = Self.hostile  // bob
            fixtures.tenant.displayName = "Contoso <i>"
        }) { client, state in
            state.setRecordsIssuedTokens(true)
            let browser = Browser(client: client)
            let code = try await browser.code(login: "bob@contoso.com")
            let (redeemed, tokens) = try await browser.redeem(code)
            #expect(redeemed == .ok && tokens["refresh_token"] != nil)
            _ = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "client_credentials"), ("client_id", "contoso-daemon"), ("client_secret", "daemon-s3cret"),
                ("scope", "api://contoso-chat/.default"),
            ])
            // A failed sign-in records what was typed as the user; a token in a path is redacted.
            _ = try await browser.signIn(query: Browser.authorizeQuery(), login: "<b>typed</b>", password: "x")
            let access = try #require(tokens["access_token"]?.stringValue)
            _ = try await client.execute(uri: "/contoso.com/\(access)/x", method: .get)

            let (_, page) = try await Self.get(client, "/_admin/ui")
            let secrets = state.issuedSecrets()
            #expect(secrets.count >= 4, "code, refresh, access and id tokens: \(secrets.count)")
            for secret in secrets + ["daemon-s3cret", "Passw0rd!"] {
                #expect(!page.contains(secret), "\(secret.prefix(16))…")
            }
            #expect(!page.contains("eyJ"), "no JWT")
            #expect(page.contains("<code>/contoso.com/[redacted]/x</code>"))
            #expect(!page.contains("<script") && !page.contains("<b>") && !page.contains("<i>"))
            #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), "a display name, escaped")
            #expect(page.contains("<code>&lt;b&gt;typed&lt;/b&gt;</code>"), "a typed username in the log, escaped")
            #expect(page.contains("Contoso &lt;i&gt;"))
        }
    }

    @Test("/_admin/ui with thousands of users shows the first ones and says how many")
    func adminUIWithManyUsers() async throws {
        try await Self.withApp { client, _ in
            let (status, _) = try await client.sendJSON("/_admin/users/generate", ["count": 1_000])
            #expect(status == .ok)
            let (response, page) = try await Self.get(client, "/_admin/ui")
            #expect(response.status == .ok)
            #expect(page.contains("Showing the first \(AdminUIPage.userLimit) of 1007 users."))
            #expect(page.contains("load00001@contoso.com") && !page.contains("load01000@contoso.com"))
            #expect(page.contains("… and \(1003 - AdminUIPage.userLimit) more"), "allowed accounts: 3 + 1000")
        }
    }
}
