import Foundation
import HTTPTypes
import Hummingbird
import JSON

extension Issuer {
    /// `grant_type=client_credentials`: app-only tokens for confidential clients.
    func clientCredentialsGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard !client.isPublic else {
            throw OAuthError.invalidClient(code: 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        let scopes = try ScopeParser.parseClientCredentials(form["scope"], apis: directory.apis)
        let lifetime = directory.lifetimes.nextAccessTokenLifetime()
        let minter = TokenMinter(
            key: key, issuer: issuerURL(base: baseURL(head), tenantId: directory.tenant.id),
            tenantId: directory.tenant.id, now: state.now(), lifetime: lifetime)
        return [
            "token_type": "Bearer",
            "expires_in": .int(Int64(lifetime)),
            "ext_expires_in": .int(Int64(lifetime)),
            "access_token": .string(try minter.appAccessToken(client: client, scopes: scopes, azpacr: Self.azpacr(client, form))),
        ]
    }

    /// `POST /{tenant}/oauth2/v2.0/devicecode`: starts a device-code sign-in.
    func deviceAuthorization(_ form: FormParameters, head: HTTPRequest, segment: String, directory: Fixtures) throws -> Response {
        let client = try self.client(form.nonEmpty("client_id"), in: directory)
        let scopes = try ScopeParser.parse(form["scope"], apis: directory.apis)
        let capabilities = try Issuer.capabilities(fromClaims: form["claims"])
        let (deviceCode, userCode) = state.issueDeviceCode(clientId: client.clientId, scopes: scopes, capabilities: capabilities)
        let verification = "\(baseURL(head))/\(segment)/oauth2/v2.0/deviceauth"
        return .json([
            "user_code": .string(userCode),
            "device_code": .string(deviceCode),
            "verification_uri": .string(verification),
            "expires_in": .int(Int64(directory.lifetimes.deviceCode)),
            "interval": .int(Int64(directory.lifetimes.deviceCodeInterval)),
            "message": .string("To sign in, use a web browser to open the page \(verification) and enter the code \(userCode) to authenticate."),
        ])
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: polls until someone signs in.
    func deviceCodeGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard let deviceCode = form.nonEmpty("device_code") else { throw OAuthError.missingParameter("device_code") }
        switch state.redeemDeviceCode(deviceCode, clientId: client.clientId) {
        case .success(let (grant, upn)):
            notes.record(user: upn)
            guard let user = directory.user(upn: upn) else {
                throw OAuthError.invalidGrant(code: 50034, "The user account {EUII Hidden} does not exist in the directory.")
            }
            let capabilities = try Self.union(grant.capabilities, Issuer.capabilities(fromClaims: form["claims"]))
            // The person signed in on the device page, which is where Entra asks for consent.
            state.recordConsent(upn: user.upn, clientId: client.clientId, scopes: grant.scopes)
            return try issueUserTokens(
                user: user, client: client, scopes: grant.scopes, capabilities: capabilities, nonce: nil,
                form: form, head: head, directory: directory)
        case .failure(.authorizationPending):
            throw OAuthError(error: "authorization_pending", aadsts: 70016, message: "OAuth 2.0 device flow error. Authorization is pending. Continue polling.")
        case .failure(.slowDown):
            throw OAuthError(
                error: "slow_down", aadsts: nil,
                message: "The client polled the device code sooner than the interval allows; wait 5 more seconds between polls (RFC 8628 §3.5).")
        case .failure(.denied):
            throw OAuthError(error: "authorization_declined", aadsts: 70000, message: "The user denied the authorization request.")
        case .failure(.expired):
            throw OAuthError(error: "expired_token", aadsts: 70020, message: "The provided value for the input parameter 'device_code' is not valid. Device codes expire after the interval in 'expires_in'.")
        case .failure:
            throw OAuthError.invalidGrant(code: 70000, "The provided value for the input parameter 'device_code' is not valid.")
        }
    }

    /// `GET`/`POST /{tenant}/oauth2/v2.0/deviceauth`: the verification page
    /// (fields `user_code`, `login`, `passwd`; ``SignInPage/device(tenantName:tenantDomain:message:)``).
    func addDeviceVerificationRoutes(to router: Router<MockRequestContext>) {
        router.get("/:tenant/oauth2/v2.0/deviceauth") { request, context in
            let directory = try self.directory(forTenant: context.pathParameter("tenant"))
            return Response.html(Self.devicePage(directory, message: nil))
        }
        router.post("/:tenant/oauth2/v2.0/deviceauth") { request, context in
            var request = request
            let form = try await request.formBody()
            let directory = try self.directory(forTenant: context.pathParameter("tenant"))
            // Wrong user codes in a row lock the page for a while: codes cannot be guessed.
            if self.state.isLockedOut(MockState.deviceGuessKey) {
                return Response.html(Self.devicePage(directory, message: .error("Too many codes that were not valid. Try again later.")), status: .ok)
            }
            let user: Fixtures.User
            do {
                user = try self.authenticate(login: form["login"] ?? "", password: form["passwd"] ?? "", in: directory)
            } catch {
                let code = (error as? OAuthError)?.aadsts
                let message = code == 50053 ? "Your account is locked. Try again later." : code == 50057
                    ? "Your account has been disabled." : "Your account or password is incorrect."
                return Response.html(Self.devicePage(directory, message: .error(message)), status: .ok)
            }
            context.note.record(user: user.upn)
            let done = self.state.completeDeviceCode(userCode: form["user_code"] ?? "", upn: user.upn)
            if done {
                self.state.clearFailures(MockState.deviceGuessKey)
            } else {
                self.state.recordFailure(MockState.deviceGuessKey, limit: directory.lockout.deviceCodeGuesses)
            }
            return Response.html(Self.devicePage(
                directory, message: done ? .done("You have signed in. You may close this window.") : .error("That code is not valid or has expired.")))
        }
    }

    static func devicePage(_ directory: Fixtures, message: SignInPage.DeviceMessage?) -> String {
        SignInPage.device(tenantName: directory.tenant.displayName, tenantDomain: directory.tenant.domain, message: message)
    }
}
