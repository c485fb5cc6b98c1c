import Foundation

/// The parameters of an authorization request, validated.
///
/// GET carries them in the query; the sign-in form carries them back as hidden fields
/// and POST validates them again.
struct AuthorizeRequest: Sendable {
    /// Parameters the sign-in form carries as hidden fields.
    static let carriedParameters = [
        "client_id", "response_type", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "claims", "response_mode", "prompt", "client_info", "max_age",
    ]

    var client: Fixtures.ClientApp
    var redirectURI: String
    var responseMode: String
    var state: String?
    var parameters: FormParameters

    /// Failures shown on the page because no redirect URI can be trusted.
    struct PageError: Error {
        var error: OAuthError
    }

    /// Checks client and redirect URI; errors here are rendered, never redirected.
    static func validateClient(_ parameters: FormParameters, directory: Fixtures, issuer: Issuer) throws(PageError) -> AuthorizeRequest {
        let client: Fixtures.ClientApp
        do {
            client = try issuer.client(parameters.nonEmpty("client_id"), in: directory)
        } catch {
            throw PageError(error: error)
        }
        guard let redirectURI = parameters.nonEmpty("redirect_uri") else {
            throw PageError(error: .missingParameter("redirect_uri"))
        }
        if let problem = RedirectURIRules.problem(redirectURI) {
            throw PageError(error: .invalidRequest(code: 50011, "The redirect URI '\(redirectURI)' specified in the request \(problem)."))
        }
        guard client.allRedirectURIs.contains(where: { Self.matches(redirectURI, registered: $0) }) else {
            throw PageError(error: .invalidRequest(
                code: 50011,
                "The redirect URI '\(redirectURI)' specified in the request does not match the redirect URIs configured for the application '\(client.clientId)'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal."))
        }
        return AuthorizeRequest(
            client: client, redirectURI: redirectURI,
            responseMode: parameters.nonEmpty("response_mode") ?? "query",
            state: parameters["state"], parameters: parameters)
    }

    /// `max_age` (OIDC Core §3.1.2.1): the longest time, in seconds, since the person last
    /// entered a password that a sign-in without a prompt may rely on.
    var maxAge: Int? { parameters.nonEmpty("max_age").flatMap { Int($0) } }

    /// Everything else; errors here are redirected to the client.
    func validateRest(directory: Fixtures) throws(OAuthError) -> (ScopeRequest, [String]) {
        guard let responseType = parameters.nonEmpty("response_type") else { throw .missingParameter("response_type") }
        guard responseType == "code" else {
            throw OAuthError(
                error: "unsupported_response_type", aadsts: 700054,
                message: "response_type '\(responseType)' is not enabled for the application.")
        }
        guard ["query", "fragment", "form_post"].contains(responseMode) else {
            throw .invalidRequest(code: 900144, "The response_mode '\(responseMode)' is not supported.")
        }
        if let method = parameters.nonEmpty("code_challenge_method"), !["S256", "plain"].contains(method) {
            throw .invalidRequest(code: 501491, "Invalid code_challenge_method '\(method)'.")
        }
        if parameters.nonEmpty("code_challenge_method") != nil, parameters.nonEmpty("code_challenge") == nil {
            throw .missingParameter("code_challenge")
        }
        if let challenge = parameters.nonEmpty("code_challenge"),
            !PKCERules.isValidChallenge(challenge, method: parameters.nonEmpty("code_challenge_method") ?? "plain")
        {
            throw .invalidRequest(code: 501491, "Invalid size of Code_Challenge parameter.")
        }
        if let maxAge = parameters.nonEmpty("max_age"), (Int(maxAge) ?? -1) < 0 {
            throw .invalidRequest("The max_age parameter must be a whole number of seconds, 0 or more (OIDC Core §3.1.2.1); got '\(maxAge)'.")
        }
        let scopes = try ScopeParser.parse(parameters["scope"], apis: directory.apis)
        let capabilities = try Issuer.capabilities(fromClaims: parameters["claims"])
        return (scopes, capabilities)
    }

    /// Entra's rule: exact match, except that an `http://localhost` (or `127.0.0.1`)
    /// registration accepts any port on the same path.
    /// A URI with a fragment or a port outside 1–65535 matches nothing (``RedirectURIRules``).
    static func matches(_ uri: String, registered: String) -> Bool {
        if RedirectURIRules.problem(uri) != nil { return false }
        if uri == registered { return true }
        guard let candidate = URLComponents(string: uri), let known = URLComponents(string: registered),
            candidate.scheme?.lowercased() == "http", known.scheme?.lowercased() == "http",
            let host = candidate.host?.lowercased(), host == known.host?.lowercased(),
            ["localhost", "127.0.0.1"].contains(host), candidate.query == known.query
        else { return false }
        let path = { (path: String) in path.isEmpty ? "/" : path }
        return path(candidate.path) == path(known.path)
    }

    /// The response for the client: a 302 (query or fragment) or an auto-posting form.
    func respond(with pairs: [(String, String)]) -> AuthorizeResponse {
        var pairs = pairs
        if let state { pairs.append(("state", state)) }
        switch responseMode {
        case "form_post":
            return .formPost(action: redirectURI, fields: pairs)
        case "fragment":
            return .redirect(redirectURI + "#" + FormParameters.encode(pairs))
        default:
            let separator = redirectURI.contains("?") ? "&" : "?"
            return .redirect(redirectURI + separator + FormParameters.encode(pairs))
        }
    }
}

/// How the authorize endpoint hands its result to the client.
enum AuthorizeResponse {
    case redirect(String)
    case formPost(action: String, fields: [(String, String)])
}
