import Foundation
import HTTPClient
import JSON
import Logging

/// Talks OAuth 2.0 / OpenID Connect to one issuer over ``HTTPClient``: discovery, authorize
/// URLs with PKCE, and token grants. It does not interpret token responses (ComplianceCore
/// classifies them); it only moves bytes and reports transport failures.
public actor IssuerClient {
    public nonisolated let configuration: IssuerConfiguration
    let http: HTTPClient
    let logger: Logger
    private var metadata: IssuerMetadata?
    /// The issuer's signing keys, once fetched (``validate(idToken:nonce:at:)``).
    var signingKeys: JSONWebKeySet?

    public init(configuration: IssuerConfiguration, http: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.http = http
        self.logger = logger
    }

    /// The issuer's endpoints, fetched once and then cached. The document must name the
    /// configured issuer (``IssuerConfiguration/Authority/issuerMismatch(_:)``).
    public func discover() async throws(IssuerError) -> IssuerMetadata {
        if let metadata { return metadata }
        let url = configuration.authority.discoveryURL
        let response = try await send(HTTPClientRequest(url: url), endpoint: url)
        guard response.status == 200 else {
            let status = response.status
            guard status >= 500 || status == 429 else {
                // The issuer's own words (Entra: AADSTS90002 for a tenant it does not know).
                throw IssuerError(
                    .badDiscovery, "the discovery document at \(url) answered HTTP \(status)\(ScriptedUser.quote(response))", endpoint: url)
            }
            throw IssuerError(
                .serviceFailure, "the issuer is failing: its discovery document at \(url) answered HTTP \(status)", endpoint: url,
                httpStatus: status, retryAfterSeconds: response.retryAfter().map { Int($0.components.seconds) })
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(response.body)
        } catch {
            throw IssuerError(.badDiscovery, "the discovery document at \(url) is not JSON: \(error)", endpoint: url)
        }
        let discovered = try IssuerMetadata(discoveryDocument: json, from: url)
        if let mismatch = configuration.authority.issuerMismatch(discovered.issuer) {
            // Tokens signed by another issuer would be cached under this one's accounts.
            throw IssuerError(.badDiscovery, "\(mismatch) (\(url))", endpoint: url)
        }
        metadata = discovered
        logger.debug("issuer discovered", metadata: ["issuer.url": "\(discovered.issuer)"])
        return discovered
    }

    /// The authorize URL for an interactive sign-in with PKCE (S256), `client_info=1`, and the
    /// claims parameter when given; `redirectURI` overrides the configured one (a loopback
    /// redirect).
    public func authorizeURL(
        scopes: [String], state: String, nonce: String, pkce: PKCE, claims: String?, loginHint: String?, redirectURI: String? = nil
    ) async throws(IssuerError) -> String {
        let endpoint = try await discover().authorizationEndpoint
        var fields: [(String, String)] = [
            ("client_id", configuration.clientID), ("response_type", "code"), ("redirect_uri", redirectURI ?? configuration.redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method), ("client_info", "1"),
        ]
        if let claims { fields.append(("claims", claims)) }
        if let loginHint { fields.append(("login_hint", loginHint)) }
        let separator = endpoint.contains("?") ? "&" : "?"
        return endpoint + separator + FormEncoding.encode(fields)
    }

    /// Posts a grant to the token endpoint with the client's id (and secret, for confidential
    /// clients), the scopes, `client_info=1`, and the claims parameter when given.
    public func requestToken(_ grant: TokenGrant, scopes: [String], claims: String?) async throws(IssuerError) -> TokenEndpointReply {
        let endpoint = try await discover().tokenEndpoint
        var fields = grant.fields
        fields.append(("client_id", configuration.clientID))
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        fields.append(("client_info", "1"))
        if let claims { fields.append(("claims", claims)) }
        var headers: HTTPClientHeaders = ["Accept": "application/json"]
        switch configuration.clientAuthentication {
        case .none: break
        case .secretPost(let secret): fields.append(("client_secret", secret))
        case .secretBasic(let secret):
            let pair = "\(FormEncoding.escape(configuration.clientID)):\(FormEncoding.escape(secret))"
            headers.add(name: "Authorization", value: "Basic \(Data(pair.utf8).base64EncodedString())")
        }
        logger.debug("token request", metadata: ["oauth.grant": "\(grant)", "oauth.endpoint": "\(HTTPClientRequest(url: endpoint).redactedURL)"])
        let response = try await send(.form(url: endpoint, fields: fields, headers: headers), endpoint: endpoint)
        return TokenEndpointReply(status: response.status, headers: response.headers.fields, body: response.body)
    }

    /// Sends a request, turning transport failures (refused, timed out, reset, cut short,
    /// untrusted TLS) into ``IssuerError/Code/network`` and an answer over the size cap into
    /// ``IssuerError/Code/serviceFailure`` (the issuer answered, but unusably).
    func send(_ request: HTTPClientRequest, endpoint: String) async throws(IssuerError) -> HTTPClientResponse {
        do {
            return try await http.execute(request)
        } catch where error.code == .responseTooLarge {
            throw IssuerError(.serviceFailure, "the issuer's answer is unusable: \(error.message)", endpoint: endpoint, transport: error)
        } catch {
            throw IssuerError(.network, "cannot reach the issuer: \(error.message)", endpoint: endpoint, transport: error)
        }
    }
}
