import Foundation
import Hummingbird
import JSON

extension Issuer {
    static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// `POST /{tenant}/oauth2/v2.0/token` and `POST /{tenant}/oauth2/v2.0/devicecode`.
    func addTokenRoutes(to router: Router<MockRequestContext>) {
        router.post("/:tenant/oauth2/v2.0/token") { request, context in
            var request = request
            let form = try await request.formBody()
            let directory = try self.directory(forTenant: context.parameters.require("tenant"))
            guard let grantType = form.nonEmpty("grant_type") else { throw OAuthError.missingParameter("grant_type") }
            context.noteRequest(grantType: grantType)
            let body: JSONValue
            switch grantType {
            case "authorization_code":
                body = try self.authorizationCodeGrant(form, request: request, context: context, directory: directory)
            case "refresh_token":
                body = try self.refreshTokenGrant(form, request: request, context: context, directory: directory)
            case "password":
                body = try self.passwordGrant(form, request: request, context: context, directory: directory)
            case "client_credentials":
                body = try self.clientCredentialsGrant(form, request: request, context: context, directory: directory)
            case Self.deviceCodeGrantType:
                body = try self.deviceCodeGrant(form, request: request, context: context, directory: directory)
            default:
                throw OAuthError(
                    error: "unsupported_grant_type", aadsts: 70003,
                    message: "The app requested an unsupported grant type '\(grantType)'.")
            }
            return Response.json(body)
        }
        router.post("/:tenant/oauth2/v2.0/devicecode") { request, context in
            var request = request
            let form = try await request.formBody()
            let segment = try context.parameters.require("tenant")
            let directory = try self.directory(forTenant: segment)
            return try self.deviceAuthorization(form, request: request, segment: segment, directory: directory)
        }
    }

    /// Authenticates the client: public clients send only `client_id`; confidential ones a
    /// secret in the body (`client_secret_post`) or HTTP Basic (`client_secret_basic`).
    func authenticateClient(_ form: FormParameters, request: Request, directory: Fixtures) throws(OAuthError) -> Fixtures.ClientApp {
        var clientId = form.nonEmpty("client_id")
        var secret = form.nonEmpty("client_secret")
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic ") {
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
        if client.isPublic {
            if secret != nil || form["client_assertion"] != nil {
                throw .invalidClient(code: 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.")
            }
            return client
        }
        guard let secret else {
            throw .invalidClient(code: 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        guard secret == client.secret else {
            throw .invalidClient(
                code: 7000215,
                "Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '\(client.clientId)'.")
        }
        return client
    }

    /// The common tail of every user grant: CA evaluation, then tokens.
    func issueUserTokens(
        user: Fixtures.User, client: Fixtures.ClientApp, scopes: ScopeRequest, capabilities: [String],
        nonce: String?, form: FormParameters, request: Request, directory: Fixtures
    ) throws -> JSONValue {
        try ConditionalAccess.evaluate(
            user: user, clientId: client.clientId, scopes: scopes, capabilities: capabilities, state: state)
        let minter = TokenMinter(
            key: key, issuer: issuerURL(base: request.baseURL(scheme: scheme), tenantId: directory.tenant.id),
            tenantId: directory.tenant.id, now: state.now(), lifetime: directory.lifetimes.accessToken)
        let refreshToken = scopes.oidcScopes.contains("offline_access")
            ? state.issueRefreshToken(upn: user.upn, clientId: client.clientId, scopes: scopes) : nil
        logger.debug(
            "user tokens issued",
            metadata: ["user.upn": "\(user.upn)", "client.id": "\(client.clientId)", "token.scope": "\(scopes.responseScope)"])
        let body = try minter.userTokenResponse(
            user: user, clientId: client.clientId, scopes: scopes, capabilities: capabilities, nonce: nonce,
            refreshToken: refreshToken, wantsClientInfo: form["client_info"] == "1")
        state.noteIssued(body)
        return body
    }
}
