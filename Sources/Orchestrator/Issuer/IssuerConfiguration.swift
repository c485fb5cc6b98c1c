/// Where the token issuer is and how this app identifies itself to it.
public struct IssuerConfiguration: Sendable, Hashable {
    /// How to find the issuer's metadata.
    public enum Authority: Sendable, Hashable {
        /// An Entra-shaped authority `https://host/{tenant}`; metadata at
        /// `{authority}/v2.0/.well-known/openid-configuration`.
        case entra(String)
        /// A generic OpenID Connect issuer (MSAL's `oidc_authority`); metadata at
        /// `{issuer}/.well-known/openid-configuration`.
        case oidc(String)

        /// The discovery document's URL.
        public var discoveryURL: String {
            switch self {
            case .entra(let authority): "\(authority.trimmingTrailingSlashes)/v2.0/.well-known/openid-configuration"
            case .oidc(let issuer): "\(issuer.trimmingTrailingSlashes)/.well-known/openid-configuration"
            }
        }

        /// The authority as configured.
        public var url: String {
            switch self {
            case .entra(let url), .oidc(let url): url
            }
        }
    }

    /// How a confidential client proves itself at the token endpoint.
    public enum ClientAuthentication: Sendable, Hashable, CustomStringConvertible {
        /// A public client (the app on a device): only `client_id` is sent.
        case none
        /// `Authorization: Basic base64(id:secret)` (client_secret_basic).
        case secretBasic(String)
        /// `client_secret` in the form body (client_secret_post).
        case secretPost(String)

        /// Never prints the secret.
        public var description: String {
            switch self {
            case .none: "none"
            case .secretBasic: "client_secret_basic(<redacted>)"
            case .secretPost: "client_secret_post(<redacted>)"
            }
        }
    }

    public var authority: Authority
    public var clientID: String
    public var redirectURI: String
    public var clientAuthentication: ClientAuthentication

    public init(authority: Authority, clientID: String, redirectURI: String, clientAuthentication: ClientAuthentication = .none) {
        self.authority = authority
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.clientAuthentication = clientAuthentication
    }
}

extension String {
    var trimmingTrailingSlashes: String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
