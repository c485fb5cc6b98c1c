import HTTPTypes

/// Token requests from browsers (issue 41 point 2), as Entra treats them.
///
/// A token request with an `Origin` header is a cross-origin (browser) request. Only a client
/// registered with single-page-application redirect URIs may send one; any other client gets
/// `invalid_request` AADSTS9002326. A code issued to an SPA redirect URI must in turn be
/// redeemed cross-origin (AADSTS9002327). Answers to requests with an `Origin` carry the CORS
/// headers that let the page read them, errors included, and `OPTIONS` answers the preflight.
enum CrossOrigin {
    /// The CORS headers of an answer to `head`: none when it has no `Origin`.
    static func headers(answering head: HTTPRequest) -> HTTPFields {
        guard let origin = head.headerFields[.origin] else { return [:] }
        return [.accessControlAllowOrigin: origin, .vary: "Origin"]
    }

    /// The preflight answer's headers for `head` (an `OPTIONS` with `Origin`); none without one.
    static func preflightHeaders(answering head: HTTPRequest) -> HTTPFields {
        var headers = headers(answering: head)
        guard !headers.isEmpty else { return headers }
        headers[.accessControlAllowMethods] = "POST, OPTIONS"
        headers[.accessControlAllowHeaders] = head.headerFields[.accessControlRequestHeaders] ?? "content-type"
        headers[.accessControlMaxAge] = "86400"
        return headers
    }

    /// Refuses a cross-origin request of `client` unless it is a single-page app.
    static func check(_ client: Fixtures.ClientApp, head: HTTPRequest) throws(OAuthError) {
        guard let origin = head.headerFields[.origin], !client.isSPA else { return }
        throw .invalidRequest(
            code: 9002326,
            "Cross-origin token redemption is permitted only for the 'Single-Page Application' client-type. Request origin: '\(origin)'.")
    }

    /// Refuses redeeming a code issued to one of `client`'s SPA redirect URIs without `Origin`.
    static func checkRedemption(of redirectURI: String, by client: Fixtures.ClientApp, head: HTTPRequest) throws(OAuthError) {
        guard head.headerFields[.origin] == nil,
            client.spaRedirectURIs.contains(where: { AuthorizeRequest.matches(redirectURI, registered: $0) })
        else { return }
        throw spaOnly
    }

    /// AADSTS9002327: an SPA's code or refresh token redeemed without `Origin`.
    static let spaOnly = OAuthError.invalidRequest(
        code: 9002327, "Tokens issued for the 'Single-Page Application' client-type may only be redeemed via cross-origin requests.")

    /// A code redeemed cross-origin needs PKCE (AADSTS9002325): a browser cannot keep a secret.
    static func checkPKCE(_ grant: AuthorizationCodeGrant, head: HTTPRequest) throws(OAuthError) {
        guard head.headerFields[.origin] != nil, grant.codeChallenge == nil else { return }
        throw .invalidRequest(code: 9002325, "Proof Key for Code Exchange is required for cross-origin authorization code redemption.")
    }
}
