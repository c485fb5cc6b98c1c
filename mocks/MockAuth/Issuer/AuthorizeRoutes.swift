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
        let hidden = AuthorizeRequest.carriedParameters.compactMap { name in parameters[name].map { (name, $0) } }
        let action = "\(baseURL(request.head))/\(segment)/oauth2/v2.0/authorize"
        // `prompt=consent`: the consent page's Accept, by the session its sign-in started.
        if isSubmission, parameters["accept"] != nil, let (user, authTime) = session(request, directory) {
            context.note.record(user: user.upn)
            return await complete(
                authorize, user: user, authTime: authTime, scopes: scopes, capabilities: capabilities, directory: directory)
        }
        if !isSubmission {
            // Single sign-on: a session cookie answers at once unless the app asked for a prompt
            // or hinted at another account.
            // `max_age`: a session whose password is older than that asks for it again.
            let prompt = parameters["prompt"]
            if prompt != "login", prompt != "select_account", let (user, authTime) = session(request, directory),
                parameters.nonEmpty("login_hint").map({ $0.lowercased() == user.upn.lowercased() }) ?? true,
                authorize.maxAge.map({ state.now().timeIntervalSince(authTime) <= TimeInterval($0) }) ?? true
            {
                context.note.record(user: user.upn)
                // A silent request cannot show the consent prompt: it never consents (OIDC Core
                // §3.1.2.6 `consent_required`, Entra's AADSTS65001).
                let missing = state.missingConsent(upn: user.upn, clientId: authorize.client.clientId, scopes: scopes)
                if prompt == "consent" {
                    return consentPage(action: action, hidden: hidden, user: user, scopes: scopes, authorize: authorize, directory: directory)
                }
                if prompt == "none", !missing.isEmpty {
                    return deliver(authorize.respond(with: errorPairs(OAuthError(
                        error: "consent_required", aadsts: 65001,
                        message: "The user or administrator has not consented to use the application with ID '\(authorize.client.clientId)' named '\(authorize.client.displayName)' for \(missing.map { "\(scopes.resource ?? "")/\($0)" }.joined(separator: ", ")). Send an interactive authorization request for this user and resource."))))
                }
                return await complete(
                    authorize, user: user, authTime: authTime, scopes: scopes, capabilities: capabilities, directory: directory)
            }
            if prompt == "none" {
                return deliver(authorize.respond(with: errorPairs(OAuthError(
                    error: "login_required", aadsts: 50058,
                    message: "A silent sign-in request was sent but no user is signed in."))))
            }
        }
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
        var response = parameters["prompt"] == "consent"
            ? consentPage(action: action, hidden: hidden, user: user, scopes: scopes, authorize: authorize, directory: directory)
            : await complete(authorize, user: user, authTime: state.now(), scopes: scopes, capabilities: capabilities, directory: directory)
        let session = state.startSession(upn: user.upn)
        response.headers[.setCookie] = "\(Self.sessionCookie)=\(session); Path=/; HttpOnly; SameSite=Lax\(scheme == "https" ? "; Secure" : "")"
        return response
    }

    static let sessionCookie = "mockauth_session"

    /// The user of the request's session cookie, if it names a live session of a known user.
    func sessionUser(_ request: Request, _ directory: Fixtures) -> Fixtures.User? {
        session(request, directory)?.user
    }

    /// The user of the request's session cookie and when they entered their password.
    func session(_ request: Request, _ directory: Fixtures) -> (user: Fixtures.User, authTime: Date)? {
        guard let id = request.cookies[Self.sessionCookie]?.value, let session = state.session(id),
            let user = directory.user(upn: session.upn), user.accountEnabled
        else { return nil }
        return (user, session.authTime)
    }

    /// Issues the code and hands it to the client with `client_info`. `authTime` (when the person
    /// entered their password) reaches the id token when the request sent `max_age`.
    func complete(
        _ authorize: AuthorizeRequest, user: Fixtures.User, authTime: Date, scopes: ScopeRequest, capabilities: [String],
        directory: Fixtures
    ) async -> Response {
        let parameters = authorize.parameters
        let now = state.now()
        // The person saw the consent prompt and accepted it by signing in.
        state.recordConsent(upn: user.upn, clientId: authorize.client.clientId, scopes: scopes)
        let code = state.issueAuthorizationCode(AuthorizationCodeGrant(
            clientId: authorize.client.clientId, redirectURI: authorize.redirectURI, upn: user.upn, scopes: scopes,
            nonce: parameters.nonEmpty("nonce"), codeChallenge: parameters.nonEmpty("code_challenge"),
            codeChallengeMethod: parameters.nonEmpty("code_challenge") == nil ? nil : (parameters.nonEmpty("code_challenge_method") ?? "plain"),
            capabilities: capabilities, authTime: authorize.maxAge == nil ? nil : authTime,
            expiresAt: now.addingTimeInterval(TimeInterval(directory.lifetimes.authorizationCode)), redeemed: false))
        let minter = TokenMinter(key: key, issuer: "", tenantId: directory.tenantId(of: user), now: now, lifetime: 0)
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
