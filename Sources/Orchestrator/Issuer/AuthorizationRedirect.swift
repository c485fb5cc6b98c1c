import HTTPClient

/// What the issuer sent back to the redirect URI after an interactive sign-in.
public enum AuthorizationRedirect: Sendable, Hashable, CustomStringConvertible {
    /// Signed in: the code to redeem and the raw `client_info`, when sent.
    case code(String, clientInfo: String?)
    /// The user pressed cancel or refused access (`error=access_denied`, with or without
    /// Entra's `error_subcode=cancel`).
    case cancelled
    /// Any other OAuth error in the redirect.
    case error(code: String, description: String?)

    /// Reads the redirect `location`, which must start with `redirectURI` and carry `state`;
    /// a repeated parameter is refused (RFC 6749 §3.1).
    public static func parse(_ location: String, redirectURI: String, expectedState: String) throws(IssuerError) -> AuthorizationRedirect {
        guard location.hasPrefix(redirectURI) else {
            throw IssuerError(.badRedirect, "the issuer redirected to \(HTTPClientRequest(url: location).redactedURL), not to the app's redirect URI \(redirectURI)", endpoint: redirectURI)
        }
        let query = location.drop { $0 != "?" && $0 != "#" }.dropFirst()
        var fields: [String: String] = [:]
        for (name, value) in FormEncoding.decode(query) {
            // RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once."
            guard fields[name] == nil else {
                throw IssuerError(.badRedirect, "the redirect repeats the parameter '\(name)'; sign-in refused", endpoint: redirectURI)
            }
            fields[name] = value
        }
        guard fields["state"] == expectedState else {
            throw IssuerError(.badRedirect, "the redirect's state does not match the request's (possible forgery); sign-in refused", endpoint: redirectURI)
        }
        if let error = fields["error"] {
            if error == "access_denied" { return .cancelled }
            return .error(code: error, description: fields["error_description"])
        }
        guard let code = fields["code"], !code.isEmpty else {
            throw IssuerError(.badRedirect, "the redirect carries neither a code nor an error", endpoint: redirectURI)
        }
        return .code(code, clientInfo: fields["client_info"])
    }

    /// Never prints the code.
    public var description: String {
        switch self {
        case .code: "code(<redacted>)"
        case .cancelled: "cancelled"
        case .error(let code, _): "error(\(code))"
        }
    }
}
