import JSON

/// The endpoints an issuer's discovery document names.
public struct IssuerMetadata: Sendable, Hashable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var jwksURI: String?
    public var deviceAuthorizationEndpoint: String?

    public init(issuer: String, authorizationEndpoint: String, tokenEndpoint: String, jwksURI: String? = nil, deviceAuthorizationEndpoint: String? = nil) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    }

    /// Reads an OpenID Connect discovery document; names the first missing or mistyped member.
    public init(discoveryDocument json: JSONValue, from url: String) throws(IssuerError) {
        guard case .object = json else {
            throw IssuerError(.badDiscovery, "the discovery document at \(url) is a JSON \(json.kindName), not an object", endpoint: url)
        }
        func required(_ key: String) throws(IssuerError) -> String {
            guard let value = json[key]?.stringValue, !value.isEmpty else {
                throw IssuerError(.badDiscovery, "the discovery document at \(url) has no '\(key)' string", endpoint: url)
            }
            return value
        }
        self.init(
            issuer: try required("issuer"),
            authorizationEndpoint: try required("authorization_endpoint"),
            tokenEndpoint: try required("token_endpoint"),
            jwksURI: json["jwks_uri"]?.stringValue,
            deviceAuthorizationEndpoint: json["device_authorization_endpoint"]?.stringValue)
    }
}
