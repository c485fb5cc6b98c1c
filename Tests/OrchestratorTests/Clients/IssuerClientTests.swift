import LocalServers
import Foundation
import HTTPClient
import JSON
import Logging
import Orchestrator
import Testing

@Suite struct IssuerClientTests {
    static let protapp = #"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#
    static let chatScopes = ["api://contoso-chat/Chat.Read", "openid", "profile", "offline_access"]
    let http = HTTPClient()

    func issuer(_ mock: InProcessMockAuth.Running) -> IssuerClient {
        IssuerClient(
            configuration: IssuerConfiguration(authority: .entra(mock.authority), clientID: "chatr", redirectURI: "msauth.com.contoso.chatr://auth"),
            http: http, logger: Logger(label: "test"))
    }

    /// Interactive sign-in through the scripted user, then the code's redemption.
    func signIn(_ issuer: IssuerClient, _ choice: ScriptedUser.Choice, scopes: [String], claims: String?) async throws -> (AuthorizationRedirect, TokenEndpointReply?) {
        let pkce = PKCE()
        let state = RandomToken.make()
        let url = try await issuer.authorizeURL(scopes: scopes, state: state, nonce: RandomToken.make(), pkce: pkce, claims: claims, loginHint: nil)
        let location = try await ScriptedUser(choice, http: http).authorize(url: url, redirectURI: issuer.configuration.redirectURI)
        let redirect = try AuthorizationRedirect.parse(location, redirectURI: issuer.configuration.redirectURI, expectedState: state)
        guard case .code(let code, _) = redirect else { return (redirect, nil) }
        let reply = try await issuer.requestToken(
            .authorizationCode(code: code, verifier: pkce.verifier, redirectURI: issuer.configuration.redirectURI), scopes: scopes, claims: claims)
        return (redirect, reply)
    }

    /// The payload of a JWT, decoded without verification (the mock's own tests verify signatures).
    func claims(ofJWT token: String) throws -> JSONValue {
        let part = token.split(separator: ".")[1]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return try JSONValue.parse(Array(Data(base64Encoded: base64)!))
    }

    @Test func discoveryFindsTheEndpoints() async throws {
        try await InProcessMockAuth.run { mock in
            let metadata = try await issuer(mock).discover()
            #expect(metadata.tokenEndpoint.hasPrefix(mock.url))
            #expect(metadata.tokenEndpoint.hasSuffix("/oauth2/v2.0/token"))
            #expect(metadata.authorizationEndpoint.hasSuffix("/oauth2/v2.0/authorize"))
        }
    }

    @Test func bobSignsInInteractivelyAndGetsACapableToken() async throws {
        try await InProcessMockAuth.run { mock in
            let (redirect, reply) = try await signIn(issuer(mock), .signIn(username: "bob@contoso.com", password: "Passw0rd!"), scopes: Self.chatScopes, claims: Self.protapp)
            guard case .code(_, let clientInfo) = redirect else { Issue.record("expected a code, got \(redirect)"); return }
            #expect(clientInfo != nil)
            let body = try JSONValue.parse(try #require(reply).body)
            #expect(reply?.status == 200)
            let accessToken = try #require(body["access_token"]?.stringValue)
            #expect(try claims(ofJWT: accessToken)["xms_cc"] == ["protapp"])
            #expect(body["refresh_token"]?.stringValue != nil)
        }
    }

    @Test func aliceGetsProtectionPolicyRequired() async throws {
        try await InProcessMockAuth.run { mock in
            let (_, reply) = try await signIn(issuer(mock), .signIn(username: "alice@contoso.com", password: "Passw0rd!"), scopes: Self.chatScopes, claims: Self.protapp)
            let body = try JSONValue.parse(try #require(reply).body)
            #expect(reply?.status == 400)
            #expect(body["error"] == "unauthorized_client")
            #expect(body["suberror"] == "protection_policy_required")
            #expect(body["error_codes"] == [53005])
        }
    }

    @Test func theUserCancels() async throws {
        try await InProcessMockAuth.run { mock in
            let (redirect, reply) = try await signIn(issuer(mock), .cancel, scopes: Self.chatScopes, claims: nil)
            #expect(redirect == .cancelled)
            #expect(reply == nil)
        }
    }

    /// `access_denied` is the user's refusal, with or without Entra's `error_subcode=cancel`;
    /// other errors keep their code and description.
    @Test func anAccessDeniedRedirectIsACancellation() throws {
        let uri = "msauth.com.contoso.chatr://auth"
        #expect(try AuthorizationRedirect.parse("\(uri)?error=access_denied&state=s", redirectURI: uri, expectedState: "s") == .cancelled)
        #expect(try AuthorizationRedirect.parse("\(uri)?error=access_denied&error_subcode=cancel&state=s", redirectURI: uri, expectedState: "s") == .cancelled)
        #expect(
            try AuthorizationRedirect.parse("\(uri)?error=invalid_scope&error_description=no+such+scope&state=s", redirectURI: uri, expectedState: "s")
                == .error(code: "invalid_scope", description: "no such scope"))
    }

    /// A client the tenant does not know: the authorize endpoint answers 400 with its error
    /// page, which is a configuration error quoting the page's error, not a failed sign-in.
    @Test func anAuthorizeEndpointRefusalIsAConfigurationErrorQuotingIt() async throws {
        try await InProcessMockAuth.run { mock in
            let unknown = IssuerClient(
                configuration: IssuerConfiguration(authority: .entra(mock.authority), clientID: "unregistered-app", redirectURI: "msauth.com.contoso.chatr://auth"),
                http: http, logger: Logger(label: "test"))
            let error = await #expect(throws: IssuerError.self) {
                _ = try await signIn(unknown, .signIn(username: "bob@contoso.com", password: "Passw0rd!"), scopes: Self.chatScopes, claims: nil)
            }
            #expect(error?.code == .misconfigured)
            #expect(error?.message.hasPrefix("its authorize endpoint answered HTTP 400: \"AADSTS700016") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aWrongPasswordIsASignInFailureNamingWhy() async throws {
        try await InProcessMockAuth.run { mock in
            let error = await #expect(throws: IssuerError.self) {
                _ = try await signIn(issuer(mock), .signIn(username: "bob@contoso.com", password: "wrong"), scopes: Self.chatScopes, claims: nil)
            }
            #expect(error?.code == .signInFailed)
        }
    }

    @Test func passwordAndRefreshGrants() async throws {
        try await InProcessMockAuth.run { mock in
            let client = issuer(mock)
            let first = try await client.requestToken(.password(username: "bob@contoso.com", password: "Passw0rd!"), scopes: Self.chatScopes, claims: Self.protapp)
            #expect(first.status == 200)
            let refresh = try #require(try JSONValue.parse(first.body)["refresh_token"]?.stringValue)
            let second = try await client.requestToken(.refreshToken(refresh), scopes: Self.chatScopes, claims: Self.protapp)
            #expect(second.status == 200)
        }
    }

    @Test func anUnreachableIssuerIsANetworkError() async throws {
        let client = IssuerClient(
            configuration: IssuerConfiguration(authority: .entra("http://127.0.0.1:1/contoso.com"), clientID: "chatr", redirectURI: "http://localhost"),
            http: http, logger: Logger(label: "test"))
        let error = await #expect(throws: IssuerError.self) { _ = try await client.discover() }
        #expect(error?.code == .network)
        #expect(error?.transport?.code == .connectionRefused)
    }

    @Test func aDiscoveryDocumentThatIsNotJSONIsNamed() async throws {
        try await InProcessMockAuth.run { mock in
            let client = IssuerClient(
                configuration: IssuerConfiguration(authority: .oidc("\(mock.url)/nothing-here"), clientID: "chatr", redirectURI: "http://localhost"),
                http: http, logger: Logger(label: "test"))
            let error = await #expect(throws: IssuerError.self) { _ = try await client.discover() }
            #expect(error?.code == .badDiscovery)
            #expect(error?.message.contains("HTTP 404") == true)
        }
    }

    /// A tenant the issuer does not know: the message quotes the issuer's own text
    /// (AADSTS90002), not only its status (issue 51).
    @Test func aWrongTenantQuotesTheIssuersError() async throws {
        try await InProcessMockAuth.run { mock in
            let client = IssuerClient(
                configuration: IssuerConfiguration(authority: .entra("\(mock.url)/fabrikam.com"), clientID: "chatr", redirectURI: "http://localhost"),
                http: http, logger: Logger(label: "test"))
            let error = await #expect(throws: IssuerError.self) { _ = try await client.discover() }
            #expect(error?.code == .badDiscovery)
            #expect(error?.message.contains("answered HTTP 400: \"invalid_request: AADSTS90002: Tenant 'fabrikam.com' not found.") == true, "\(String(describing: error))")
            #expect(error?.message.contains("Trace ID") == false, "\(String(describing: error))")
        }
    }

    @Test func aDiscoveryDocumentMustNameTheIssuerConfigured() async throws {
        try await InProcessMockAuth.run { mock in
            let tenant = "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"
            func client(_ authority: IssuerConfiguration.Authority) -> IssuerClient {
                IssuerClient(configuration: IssuerConfiguration(authority: authority, clientID: "chatr", redirectURI: "http://localhost"), http: http, logger: Logger(label: "test"))
            }
            // The issuer as the document names it (with or without a trailing slash) is found.
            for url in ["\(mock.url)/\(tenant)/v2.0", "\(mock.url)/\(tenant)/v2.0/"] {
                let metadata = try await client(.oidc(url)).discover()
                #expect(metadata.issuer == "\(mock.url)/\(tenant)/v2.0")
            }
            // Its domain alias serves a document naming the tenant id: not the issuer configured.
            let error = await #expect(throws: IssuerError.self) { _ = try await client(.oidc("\(mock.url)/contoso.com/v2.0")).discover() }
            #expect(error?.code == .badDiscovery)
            #expect(error?.message.contains("names the issuer '\(mock.url)/\(tenant)/v2.0', not '\(mock.url)/contoso.com/v2.0'") == true, "\(String(describing: error))")
            // An Entra authority may name the tenant by domain: same host is enough.
            _ = try await client(.entra(mock.authority)).discover()
        }
    }

    @Test func issuerMismatchRules() {
        typealias Authority = IssuerConfiguration.Authority
        #expect(Authority.oidc("https://id.example/realms/a").issuerMismatch("https://id.example/realms/a") == nil)
        #expect(Authority.oidc("https://id.example/realms/a/").issuerMismatch("https://id.example/realms/a") == nil)
        #expect(Authority.oidc("https://id.example/realms/a").issuerMismatch("https://id.example/realms/b") != nil)
        #expect(Authority.oidc("https://id.example").issuerMismatch("http://id.example") != nil)
        #expect(Authority.entra("https://login.example/contoso.com").issuerMismatch("https://login.example/8d5e/v2.0") == nil)
        #expect(Authority.entra("https://login.example/contoso.com").issuerMismatch("https://LOGIN.example/8d5e/v2.0") == nil)
        #expect(Authority.entra("https://login.example/contoso.com").issuerMismatch("https://evil.example/8d5e/v2.0") != nil)
        #expect(Authority.entra("https://login.example:8443/contoso.com").issuerMismatch("https://login.example/8d5e/v2.0") != nil)
    }
}
