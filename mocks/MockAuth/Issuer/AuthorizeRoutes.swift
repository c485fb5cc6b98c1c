import Foundation
import Hummingbird

extension Issuer {
    /// `GET` and `POST /{tenant}/oauth2/v2.0/authorize`.
    func addAuthorizeRoutes(to router: Router<MockRequestContext>) {
        router.get("/:tenant/oauth2/v2.0/authorize") { request, context in
            let parameters = try request.queryParameters
            return await self.authorize(request: request, context: context, parameters: parameters, isSubmission: false)
        }
        router.post("/:tenant/oauth2/v2.0/authorize") { request, context in
            var request = request
            let parameters = try await request.formBody()
            return await self.authorize(request: request, context: context, parameters: parameters, isSubmission: true)
        }
    }

    private func authorize(request: Request, context: MockRequestContext, parameters: FormParameters, isSubmission: Bool) async -> Response {
        let segment = context.parameters.get("tenant") ?? ""
        let directory: Fixtures
        let authorize: AuthorizeRequest
        do {
            directory = try await self.directory(forTenant: segment)
            authorize = try AuthorizeRequest.validateClient(parameters, directory: directory, issuer: self)
        } catch let error as AuthorizeRequest.PageError {
            return .html(SignInPage.error(error.error), status: .badRequest)
        } catch let error as OAuthError {
            return .html(SignInPage.error(error), status: .badRequest)
        } catch {
            return .html(SignInPage.error(.invalidRequest(code: 900144, "\(error)")), status: .badRequest)
        }
        let scopes: ScopeRequest
        let capabilities: [String]
        do {
            (scopes, capabilities) = try authorize.validateRest(directory: directory)
        } catch {
            return deliver(authorize.respond(with: errorPairs(error)))
        }
        if isSubmission, parameters["cancel"] != nil {
            return deliver(authorize.respond(with: [
                ("error", "access_denied"), ("error_subcode", "cancel"),
                ("error_description", "AADSTS65004: User declined to consent to access the app."),
            ]))
        }
        if !isSubmission, parameters["prompt"] == "none" {
            return deliver(authorize.respond(with: errorPairs(OAuthError(
                error: "login_required", aadsts: 50058,
                message: "A silent sign-in request was sent but no user is signed in."))))
        }
        let hidden = AuthorizeRequest.carriedParameters.compactMap { name in parameters[name].map { (name, $0) } }
        let action = "\(request.baseURL(scheme: scheme))/\(segment)/oauth2/v2.0/authorize"
        let page = { (login: String, error: String?) in
            Response.html(SignInPage.signIn(
                action: action, tenantName: directory.tenant.displayName, clientName: authorize.client.displayName,
                hidden: hidden, login: login, error: error))
        }
        guard isSubmission else { return page(parameters["login_hint"] ?? "", nil) }

        let login = parameters["login"] ?? ""
        let user: Fixtures.User
        do {
            user = try authenticate(login: login, password: parameters["passwd"] ?? "", in: directory)
        } catch {
            context.noteRequest(user: login)
            let message = (error.aadsts == 50126 ? "Your account or password is incorrect. " : "This account does not exist. ")
                + "(AADSTS\(error.aadsts ?? 0))"
            return page(login, message)
        }
        context.noteRequest(user: user.upn)
        let now = await state.now()
        let code = await state.issueAuthorizationCode(AuthorizationCodeGrant(
            clientId: authorize.client.clientId, redirectURI: authorize.redirectURI, upn: user.upn, scopes: scopes,
            nonce: parameters.nonEmpty("nonce"), codeChallenge: parameters.nonEmpty("code_challenge"),
            codeChallengeMethod: parameters.nonEmpty("code_challenge") == nil ? nil : (parameters.nonEmpty("code_challenge_method") ?? "plain"),
            capabilities: capabilities,
            expiresAt: now.addingTimeInterval(TimeInterval(directory.lifetimes.authorizationCode)), redeemed: false))
        let minter = TokenMinter(key: key, issuer: "", tenantId: directory.tenant.id, now: now, lifetime: 0)
        logger.debug("authorization code issued", metadata: ["user.upn": "\(user.upn)", "client.id": "\(authorize.client.clientId)"])
        return deliver(authorize.respond(with: [("code", code), ("client_info", minter.clientInfo(user: user))]))
    }

    private func errorPairs(_ error: OAuthError) -> [(String, String)] {
        [("error", error.error), ("error_description", error.aadsts.map { "AADSTS\($0): \(error.message)" } ?? error.message)]
    }

    private func deliver(_ response: AuthorizeResponse) -> Response {
        switch response {
        case .redirect(let location): .redirect(to: location)
        case .formPost(let action, let fields): .html(SignInPage.formPost(action: action, fields: fields))
        }
    }
}
