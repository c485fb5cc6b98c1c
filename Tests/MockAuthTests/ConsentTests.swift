import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 5: a scope the user has not consented to is `consent_required`, not a partial grant.
@Suite("Consent")
struct ConsentTests {
    static let write = "api://contoso-chat/Chat.Write openid profile offline_access"

    @Test("Chat.Write needs consent: 65001 consent_required until an interactive sign-in consents, per user and app")
    func consentRequired() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken("bob@contoso.com", scope: Self.write)
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_grant" && body["error_codes"] == [65001] && body["suberror"] == "consent_required", "\(body)")
            // .default covers only consented scopes: Chat.Read, never Chat.Write.
            let (_, defaults) = try await client.passwordToken("bob@contoso.com", scope: "api://contoso-chat/.default")
            #expect(defaults.jwtClaims("access_token")?["scp"] == "Chat.Read")
            // A refresh token for Chat.Read cannot be traded for Chat.Write either.
            let (_, read) = try await client.passwordToken("bob@contoso.com")
            let refresh = try #require(read["refresh_token"]?.stringValue)
            let (_, traded) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "refresh_token"), ("client_id", "chatr"), ("refresh_token", refresh), ("scope", Self.write)])
            #expect(traded["error_codes"] == [65001] && traded["suberror"] == "consent_required", "\(traded)")

            // The browser sign-in consents (the person accepted the prompt); the code redeems.
            let browser = Browser(client: client)
            let query = Browser.authorizeQuery().replacingOccurrences(
                of: FormParameters.encode([("scope", TestSupport.chatScope)]), with: FormParameters.encode([("scope", Self.write)]))
            let signedIn = try await browser.signIn(query: query, login: "bob@contoso.com")
            let code = try #require(try Browser.redirectParameters(signedIn)["code"])
            let (redeemed, tokens) = try await browser.redeem(code)
            #expect(redeemed == .ok, "\(tokens)")
            #expect(tokens.jwtClaims("access_token")?["scp"] == "Chat.Write")
            let (after, _) = try await client.passwordToken("bob@contoso.com", scope: Self.write)
            #expect(after == .ok, "consented now")
            // Consent is per user: dave has not consented.
            let (dave, daveBody) = try await client.passwordToken("dave@contoso.com", scope: Self.write)
            #expect(dave == .badRequest && daveBody["suberror"] == "consent_required")
        }
    }

    @Test("a declined scope still gets the partial grant (the fixture's declinedScopes rule)")
    func declinedStaysPartial() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.passwordToken(
                "bob@contoso.com", scope: "api://contoso-chat/Chat.Read api://contoso-chat/Chat.Admin openid")
            #expect(status == .ok)
            #expect(body["scope"] == "api://contoso-chat/Chat.Read openid")
        }
    }
}
