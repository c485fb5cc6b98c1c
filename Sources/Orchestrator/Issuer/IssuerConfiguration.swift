import Foundation

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

        /// True for an Entra-shaped authority (people are identified by `oid` and `tid`).
        public var isEntra: Bool {
            if case .entra = self { return true }
            return false
        }

        /// Why a discovery document's `issuer` is not this authority's, or nil when it is.
        ///
        /// - A generic issuer must name itself exactly (OpenID Connect Discovery 1.0 §4.3; a
        ///   trailing `/` is not a difference).
        /// - An Entra document names the tenant by id (`https://host/{tenant-id}/v2.0`, or
        ///   `{tenantid}` for the multi-tenant authorities) where the authority may use a
        ///   domain: its issuer must be on the authority's scheme, host and port.
        public func issuerMismatch(_ issuer: String) -> String? {
            switch self {
            case .oidc(let url):
                guard issuer.trimmingTrailingSlashes != url.trimmingTrailingSlashes else { return nil }
                return "the discovery document names the issuer '\(issuer)', not '\(url)' as configured"
            case .entra(let url):
                guard let expected = IssuerConfiguration.origin(of: url), let found = IssuerConfiguration.origin(of: issuer), expected == found else {
                    return "the discovery document names the issuer '\(issuer)', which is not on the authority's host \(IssuerConfiguration.origin(of: url) ?? url)"
                }
                return nil
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

extension IssuerConfiguration {
    /// `scheme://host[:port]` of an http(s) URL, scheme and host lower-cased (they compare
    /// case-insensitively); nil for anything else.
    public static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
    }
}
