import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// Issue 52 item 6: `prompt=consent` shows a consent page.
@Suite("prompt=consent")
struct ConsentPageTests {
    static func post(_ client: any TestClientProtocol, _ fields: [String: String], cookie: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(
            uri: "/contoso.com/oauth2/v2.0/authorize", method: .post, headers: headers,
            body: ByteBuffer(string: FormParameters.encode(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
    }

    @Test("after the sign-in, the consent page lists the permissions; Accept issues the code, Cancel is access_denied")
    func consentPage() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let write = "api://contoso-chat/Chat.Write openid profile offline_access"
            let query = Browser.authorizeQuery(scope: write, extra: [("prompt", "consent")])
            let signedIn = try await Browser(client: client).signIn(query: query, login: "bob@contoso.com")
            #expect(signedIn.status == .ok, "the consent page, not a redirect")
            let page = String(buffer: signedIn.body)
            #expect(page.contains("Permissions requested") && page.contains("api://contoso-chat/Chat.Write"))
            #expect(page.contains(#"name="accept""#) && page.contains(#"name="cancel""#))
            let cookie = try #require(signedIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            var fields = Browser.inputs(of: page).fields
            #expect(fields["prompt"] == "consent")

            let cancelled = try await Self.post(client, fields.merging(["cancel": "1"]) { $1 }, cookie: cookie)
            #expect(try Browser.redirectParameters(cancelled)["error"] == "access_denied")

            fields["accept"] = "1"
            let accepted = try await Self.post(client, fields, cookie: cookie)
            let code = try #require(try Browser.redirectParameters(accepted)["code"])
            let (status, tokens) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "authorization_code"), ("client_id", "chatr"), ("code", code), ("redirect_uri", "http://localhost:5555"),
                ("code_verifier", Browser.verifier), ("scope", write),
            ])
            #expect(status == .ok, "consented: Chat.Write is granted \(tokens)")

            // With a session, prompt=consent shows the page again at once.
            let again = try await client.execute(uri: "/contoso.com/oauth2/v2.0/authorize?" + query, method: .get, headers: [.cookie: cookie])
            #expect(again.status == .ok && String(buffer: again.body).contains("Permissions requested"))
            // Accept without a session is only the sign-in page again.
            let anonymous = try await Self.post(client, fields)
            #expect(anonymous.status == .ok && String(buffer: anonymous.body).contains(#"name="passwd""#))
        }
    }
}
