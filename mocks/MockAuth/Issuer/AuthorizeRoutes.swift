import Foundation
import Hummingbird

extension Issuer {
    /// `GET` and `POST /{tenant}/oauth2/v2.0/authorize`.
    func addAuthorizeRoutes(to router: Router<MockRequestContext>) {
        router.get("/:tenant/oauth2/v2.0/authorize") { request, context in
            try await self.authorize(request: request, context: context, isSubmission: false)
        }
        router.post("/:tenant/oauth2/v2.0/authorize") { request, context in
            try await self.authorize(request: request, context: context, isSubmission: true)
        }
    }

    /// Reads the query (GET) or the form (POST submission), then answers. A request that cannot
    /// even be read (bad percent-encoding, a repeated parameter, a body too large) gets the HTML
    /// error page (400, or 413), like every other authorize error shown to a user.
    private func authorize(request: Request, context: MockRequestContext, isSubmission: Bool) async throws -> Response {
        var request = request
        let parameters: FormParameters
        do {
            parameters = isSubmission ? try await request.formBody() : try request.queryParameters
        } catch let error as OAuthError {
            return .html(SignInPage.error(error), status: error.status)
        }
        return await authorize(request: request, context: context, parameters: parameters, isSubmission: isSubmission)
    }

    private func authorize(request: Request, context: MockRequestContext, parameters: FormParameters, isSubmission: Bool) async -> Response {
        let segment = (try? context.pathParameter("tenant")) ?? ""
        let directory: Fixtures
        let authorize: AuthorizeRequest
        do {
            directory = try self.directory(forTenant: segment)
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
        // The person pressed Cancel: RFC 6749 §4.1.2.1's `access_denied` to the redirect URI
        // (with `state`), with Entra's `error_subcode=cancel`.
        if isSubmission, parameters["cancel"] != nil {
            return deliver(authorize.respond(with: [
                ("error", "access_denied"), ("error_subcode", "cancel"),
                ("error_description", "AADSTS65004: User declined to consent to access the app."),
            ]))
        }
        if !isSubmission {
            // Single sign-on: a session cookie answers at once unless the app asked for a prompt
            // or hinted at another account.
            let prompt = parameters["prompt"]
            if prompt != "login", prompt != "select_account", let user = sessionUser(request, directory),
                parameters.nonEmpty("login_hint").map({ $0.lowercased() == user.upn.lowercased() }) ?? true
            {
                context.note.record(user: user.upn)
                return await complete(authorize, user: user, scopes: scopes, capabilities: capabilities, directory: directory)
            }
            if prompt == "none" {
                return deliver(authorize.respond(with: errorPairs(OAuthError(
                    error: "login_required", aadsts: 50058,
                    message: "A silent sign-in request was sent but no user is signed in."))))
            }
        }
        let hidden = AuthorizeRequest.carriedParameters.compactMap { name in parameters[name].map { (name, $0) } }
        let action = "\(baseURL(request.head))/\(segment)/oauth2/v2.0/authorize"
        let page = { (login: String, error: String?) in
            Response.html(SignInPage.signIn(
                action: action, tenantName: directory.tenant.displayName, tenantDomain: directory.tenant.domain,
                clientName: authorize.client.displayName, hidden: hidden, login: login, error: error))
        }
        guard isSubmission else { return page(parameters["login_hint"] ?? "", nil) }

        let login = parameters["login"] ?? ""
        let user: Fixtures.User
        do {
            user = try authenticate(login: login, password: parameters["passwd"] ?? "", in: directory)
        } catch {
            context.note.record(user: login)
            // The page again, with the message in its error area (and the username kept), as
            // Entra does; nothing goes to the redirect URI, so the person can retry or cancel.
            let message = switch error.aadsts {
            case 50126: "Your account or password is incorrect. (AADSTS50126)"
            case 50057: "Your account has been disabled. Contact your administrator. (AADSTS50057)"
            case 50053: "Your account is locked because of too many sign-in attempts. Try again later. (AADSTS50053)"
            default: "This account does not exist in the \(directory.tenant.displayName) directory. Check the username, or use another account. (AADSTS\(error.aadsts ?? 0))"
            }
            return page(login, message)
        }
        context.note.record(user: user.upn)
        var response = await complete(authorize, user: user, scopes: scopes, capabilities: capabilities, directory: directory)
        let session = state.startSession(upn: user.upn)
        response.headers[.setCookie] = "\(Self.sessionCookie)=\(session); Path=/; HttpOnly; SameSite=Lax\(scheme == "https" ? "; Secure" : "")"
        return response
    }

    static let sessionCookie = "mockauth_session"

    /// The user of the request's session cookie, if it names a live session of a known user.
    func sessionUser(_ request: Request, _ directory: Fixtures) -> Fixtures.User? {
        guard let id = request.cookies[Self.sessionCookie]?.value, let upn = state.sessionUser(id) else { return nil }
        return directory.user(upn: upn).flatMap { $0.accountEnabled ? $0 : nil }
    }

    /// Issues the code and hands it to the client with `client_info`.
    private func complete(
        _ authorize: AuthorizeRequest, user: Fixtures.User, scopes: ScopeRequest, capabilities: [String], directory: Fixtures
    ) async -> Response {
        let parameters = authorize.parameters
        let now = state.now()
        // The person saw the consent prompt and accepted it by signing in.
        state.recordConsent(upn: user.upn, clientId: authorize.client.clientId, scopes: scopes)
        let code = state.issueAuthorizationCode(AuthorizationCodeGrant(
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
