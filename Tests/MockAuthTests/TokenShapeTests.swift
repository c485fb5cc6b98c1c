import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import Logging
import Testing

@testable import MockAuth

/// Issue 41 point 11: access tokens shaped as Entra's v2.0 ones.
@Suite("Token shape")
struct TokenShapeTests {
    static let apiAppId = "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c"

    @Test("aud is the API's application ID; the App ID URI and the ID both name the API in requests")
    func audienceIsTheAppId() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, byURI) = try await client.passwordToken("bob@contoso.com")
            #expect(byURI.jwtClaims("access_token")?["aud"] == .string(Self.apiAppId))
            let (status, byId) = try await client.passwordToken("bob@contoso.com", scope: "\(Self.apiAppId)/Chat.Read openid")
            #expect(status == .ok, "\(byId)")
            #expect(byId.jwtClaims("access_token")?["aud"] == .string(Self.apiAppId))
            #expect(byId.jwtClaims("access_token")?["scp"] == "Chat.Read")
            let (_, mam) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope)
            #expect(mam.jwtClaims("access_token")?["aud"] == "https://msmamservice.api.application", "no appId in the fixture: the URI")
        }
    }

    @Test("azpacr is 1 for a client that authenticated with a secret, 0 for a public one; roles is left out when empty")
    func azpacrAndRoles() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, publicClient) = try await client.passwordToken("bob@contoso.com")
            #expect(publicClient.jwtClaims("access_token")?["azpacr"] == "0")
            let (_, web) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "password"), ("client_id", "chatr-web"), ("client_secret", "web-s3cret"), ("username", "bob@contoso.com"),
                ("password", "Passw0rd!"), ("scope", TestSupport.chatScope)])
            #expect(web.jwtClaims("access_token")?["azpacr"] == "1", "\(web)")
            let (_, app) = try await client.postForm("/contoso.com/oauth2/v2.0/token", [
                ("grant_type", "client_credentials"), ("client_id", "contoso-daemon"), ("client_secret", "daemon-s3cret"),
                ("scope", "api://contoso-chat/.default")])
            let claims = try #require(app.jwtClaims("access_token"))
            #expect(claims["azpacr"] == "1" && claims["aud"] == .string(Self.apiAppId))
            #expect(claims["roles"] == nil)
        }
    }

    @Test("randomizeAccessToken gives lifetimes in 3600–5400 s; off, it is the fixed lifetime")
    func randomLifetime() throws {
        var lifetimes = try TestSupport.fixtures().lifetimes
        #expect(lifetimes.nextAccessTokenLifetime() == 3600)
        lifetimes.randomizeAccessToken = true
        let seen = Set((0..<200).map { _ in lifetimes.nextAccessTokenLifetime() })
        #expect(seen.allSatisfy { (3600...5400).contains($0) } && seen.count > 1)
    }

    @Test("iss follows a Host that names this server, never an arbitrary one; --public-url wins")
    func issuerHost() throws {
        let state = MockState(fixtures: try TestSupport.fixtures())
        let listening = ListeningAuthority()
        listening.set(host: "127.0.0.1", port: 5555)
        let issuer = Issuer(state: state, key: TestSupport.key, scheme: "http", listening: listening, logger: TestSupport.logger)
        func base(_ host: String?) -> String {
            issuer.baseURL(HTTPRequest(method: .get, scheme: nil, authority: host, path: "/"))
        }
        #expect(base("localhost:5555") == "http://localhost:5555")
        #expect(base("127.0.0.1:5555") == "http://127.0.0.1:5555")
        #expect(base("[::1]:5555") == "http://[::1]:5555")
        for hostile in ["evil.example", "evil.example:5555", "localhost:6666", "localhost", "127.0.0.1:5555@evil", nil] {
            #expect(base(hostile) == "http://127.0.0.1:5555", "\(hostile ?? "no Host")")
        }
        let proxied = Issuer(state: state, key: TestSupport.key, scheme: "http", listening: listening, publicURL: "https://auth.example", logger: TestSupport.logger)
        #expect(proxied.baseURL(HTTPRequest(method: .get, scheme: nil, authority: "localhost:5555", path: "/")) == "https://auth.example")
    }
}
