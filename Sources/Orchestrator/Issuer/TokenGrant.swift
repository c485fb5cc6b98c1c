/// A request to the token endpoint, without the client's own parameters.
public enum TokenGrant: Sendable, Hashable, CustomStringConvertible {
    case authorizationCode(code: String, verifier: String, redirectURI: String)
    case refreshToken(String)
    case password(username: String, password: String)
    case clientCredentials
    /// RFC 8628 §3.4: polls for a device code's sign-in.
    case deviceCode(String)

    /// The grant's form fields, in the order they are sent.
    var fields: [(String, String)] {
        switch self {
        case .authorizationCode(let code, let verifier, let redirectURI):
            [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier), ("redirect_uri", redirectURI)]
        case .refreshToken(let token):
            [("grant_type", "refresh_token"), ("refresh_token", token)]
        case .password(let username, let password):
            [("grant_type", "password"), ("username", username), ("password", password)]
        case .clientCredentials:
            [("grant_type", "client_credentials")]
        case .deviceCode(let code):
            [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", code)]
        }
    }

    /// Names the grant, never its secrets.
    public var description: String {
        switch self {
        case .authorizationCode: "authorization_code"
        case .refreshToken: "refresh_token"
        case .password(let username, _): "password(\(username))"
        case .clientCredentials: "client_credentials"
        case .deviceCode: "device_code"
        }
    }
}

/// The issuer's raw answer to a token request, to be classified by ComplianceCore.
public struct TokenEndpointReply: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
