import Foundation
import HTTPTypes
import Hummingbird
import JSON

extension Issuer {
    static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// `POST /{tenant}/oauth2/v2.0/token` and `POST /{tenant}/oauth2/v2.0/devicecode`.
    ///
    /// Most token requests never reach this route: ``TokenFastLane`` answers them on the
    /// connection's event loop with the same ``tokenResponse(tenant:form:head:notes:)``. The
    /// route serves the rest (an armed fault, a pipelined request, no Content-Length, …) and
    /// every in-process test that drives the router.
    func addTokenRoutes(to router: Router<MockRequestContext>) {
        router.post("/:tenant/oauth2/v2.0/token") { request, context in
            var request = request
            let form = try await request.formBody()
            let cors = CrossOrigin.headers(answering: request.head)
            do {
                return Response.json(
                    try self.tokenResponse(tenant: context.pathParameter("tenant"), form: form, head: request.head, notes: context.note),
                    headers: cors)
            } catch let error as OAuthError {
                var response = error.response(for: request)
                response.headers.append(contentsOf: cors)
                return response
            }
        }
        router.post("/:tenant/oauth2/v2.0/devicecode") { request, context in
            var request = request
            let form = try await request.formBody()
            let segment = try context.pathParameter("tenant")
            do {
                let directory = try self.directory(forTenant: segment)
                return try self.deviceAuthorization(form, head: request.head, segment: segment, directory: directory)
            } catch let error as OAuthError {
                self.state.metrics.error(error, endpoint: "devicecode")
                throw error
            }
        }
        // Entra's answer to another method on these endpoints (a browser or a GET by mistake);
        // OPTIONS, the other method it accepts, names the allowed methods.
        for endpoint in ["token", "devicecode"] {
            let path = RouterPath("/:tenant/oauth2/v2.0/\(endpoint)")
            for method in [HTTPRequest.Method.get, .head, .put, .delete, .patch] {
                router.on(path, method: method) { request, _ -> Response in
                    throw OAuthError.invalidRequest(
                        code: 900561, "The endpoint only accepts POST, OPTIONS requests. Received a \(request.method.rawValue) request.")
                }
            }
            // A browser's CORS preflight gets its answer (CrossOrigin); the client type is
            // checked on the POST that follows.
            router.on(path, method: .options) { request, _ in
                var headers: HTTPFields = [.allow: "POST, OPTIONS", .contentLength: "0"]
                headers.append(contentsOf: CrossOrigin.preflightHeaders(answering: request.head))
                return Response(status: .ok, headers: headers)
            }
        }
    }

    /// The token endpoint's success body for one request of the tenant path segment `tenant`;
    /// throws the ``OAuthError`` (or CA answer) a real issuer would send. Notes the grant type
    /// and user in `notes` for the request log, also when it throws.
    func tokenResponse(tenant: String, form: FormParameters, head: HTTPRequest, notes: RequestNotes) throws -> JSONValue {
        do {
            let body = try grantResponse(tenant: tenant, form: form, head: head, notes: notes)
            state.metrics.tokenIssued(grant: form["grant_type"] ?? "")
            return body
        } catch let error as OAuthError {
            state.metrics.error(error, endpoint: "token")
            throw error
        }
    }

    /// ``tokenResponse(tenant:form:head:notes:)`` before it is counted.
    private func grantResponse(tenant: String, form: FormParameters, head: HTTPRequest, notes: RequestNotes) throws -> JSONValue {
        let directory = try directory(forTenant: tenant)
        guard let grantType = form.nonEmpty("grant_type") else { throw OAuthError.missingParameter("grant_type") }
        notes.record(grantType: grantType)
        switch grantType {
        case "authorization_code":
            return try authorizationCodeGrant(form, head: head, notes: notes, directory: directory)
        case "refresh_token":
            return try refreshTokenGrant(form, head: head, notes: notes, directory: directory)
        case "password":
            return try passwordGrant(form, head: head, notes: notes, directory: directory)
        case "client_credentials":
            return try clientCredentialsGrant(form, head: head, notes: notes, directory: directory)
        case Self.deviceCodeGrantType:
            return try deviceCodeGrant(form, head: head, notes: notes, directory: directory)
        case Self.jwtBearerGrantType:
            return try onBehalfOfGrant(form, head: head, notes: notes, directory: directory)
        default:
            throw OAuthError(
                error: "unsupported_grant_type", aadsts: 70003,
                message: "The app requested an unsupported grant type '\(grantType)'.")
        }
    }

    /// Authenticates the client: public clients send only `client_id`; confidential ones a
    /// secret in the body (`client_secret_post`) or HTTP Basic (`client_secret_basic`).
    /// More than one method in a request (Basic with a body secret or assertion, or a secret
    /// with an assertion) is `invalid_request`, RFC 6749 §2.3 and §5.2, never decided by
    /// whichever wins.
    func authenticateClient(_ form: FormParameters, head: HTTPRequest, directory: Fixtures) throws(OAuthError) -> Fixtures.ClientApp {
        var clientId = form.nonEmpty("client_id")
        var secret = form.nonEmpty("client_secret")
        let basic = head.headerFields[.authorization].map { $0.lowercased().hasPrefix("basic ") } ?? false
        let methods = [basic, form["client_secret"] != nil, form["client_assertion"] != nil].filter { $0 }.count
        if methods > 1 {
            throw .invalidRequest(
                "The client used more than one authentication method (HTTP Basic, client_secret, client_assertion) in one request; use exactly one (RFC 6749 §2.3).")
        }
        if basic, let authorization = head.headerFields[.authorization] {
            guard let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
            else { throw .invalidClient(code: 7000215, "Invalid client secret provided.") }
            let basicId = String(text[..<colon]).removingPercentEncoding ?? ""
            if let clientId, clientId != basicId {
                throw .invalidClient(code: 7000215, "The client_id in the body does not match the Authorization header.")
            }
            clientId = basicId
            secret = String(text[text.index(after: colon)...]).removingPercentEncoding
        }
        let client = try self.client(clientId, in: directory)
        try CrossOrigin.check(client, head: head)
        if client.isPublic {
            if secret != nil || form["client_assertion"] != nil {
                throw .invalidClient(code: 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.")
            }
            return client
        }
        if let assertion = form.nonEmpty("client_assertion") {
            try checkAssertion(assertion, type: form.nonEmpty("client_assertion_type"), client: client, head: head, directory: directory)
            return client
        }
        guard let secret else {
            throw .invalidClient(code: 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        guard let expected = client.secret, secret == expected else {
            throw .invalidClient(
                code: 7000215,
                "Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '\(client.clientId)'.")
        }
        return client
    }

    /// The common tail of every user grant: CA evaluation, then tokens. `caClientId` is the app
    /// whose compliance CA checks when it is not `client` (on-behalf-of: the user's client app);
    /// `spaEnd` the end of the SPA refresh token a refresh redeemed, which its successor keeps.
    func issueUserTokens(
        user: Fixtures.User, client: Fixtures.ClientApp, scopes: ScopeRequest, capabilities: [String],
        nonce: String?, form: FormParameters, head: HTTPRequest, directory: Fixtures, authTime: Date? = nil,
        caClientId: String? = nil, spaEnd: Date? = nil
    ) throws -> JSONValue {
        // Dynamic consent: only an interactive sign-in (authorize, the device page) consents.
        let missing = state.missingConsent(upn: user.upn, clientId: client.clientId, scopes: scopes)
        if !missing.isEmpty {
            throw OAuthError.invalidGrant(
                code: 65001,
                "The user or administrator has not consented to use the application with ID '\(client.clientId)' named '\(client.displayName)' for \(missing.map { "\(scopes.resource ?? "")/\($0)" }.joined(separator: ", ")). Send an interactive authorization request for this user and resource.",
                suberror: "consent_required")
        }
        try ConditionalAccess.evaluate(
            user: user, clientId: caClientId ?? client.clientId, scopes: scopes, capabilities: capabilities, state: state)
        let tenantId = directory.tenantId(of: user)
        let minter = TokenMinter(
            key: key, issuer: issuerURL(base: baseURL(head), tenantId: tenantId),
            tenantId: tenantId, now: state.now(), lifetime: directory.lifetimes.nextAccessTokenLifetime())
        let refreshToken = scopes.oidcScopes.contains("offline_access")
            ? state.issueRefreshToken(
                upn: user.upn, clientId: client.clientId, scopes: scopes, spa: head.headerFields[.origin] != nil, spaEnd: spaEnd) : nil
        logger.debug(
            "user tokens issued",
            metadata: ["user.upn": "\(user.upn)", "client.id": "\(client.clientId)", "token.scope": "\(scopes.responseScope)"])
        let body = try minter.userTokenResponse(
            user: user, clientId: client.clientId, scopes: scopes, capabilities: capabilities, nonce: nonce,
            refreshToken: refreshToken, wantsClientInfo: form["client_info"] == "1", azpacr: Self.azpacr(client, form),
            authTime: authTime)
        state.noteIssued(body)
        return body
    }
}
