import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JSON

extension Issuer {
    /// `grant_type=authorization_code`: single-use, short-lived codes; PKCE verified.
    func authorizationCodeGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard let code = form.nonEmpty("code") else { throw OAuthError.missingParameter("code") }
        // RFC 6749 §4.1.3: required, since every authorize request carries one (checked before
        // the code is spent).
        guard let redirect = form.nonEmpty("redirect_uri") else { throw OAuthError.missingParameter("redirect_uri") }
        let grant: AuthorizationCodeGrant
        switch state.redeemAuthorizationCode(code, clientId: client.clientId) {
        case .success(let found): grant = found
        case .failure(.alreadyRedeemed):
            throw OAuthError.invalidGrant(code: 54005, "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.")
        case .failure(.expired):
            throw OAuthError.invalidGrant(code: 70008, "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.")
        case .failure(.wrongClient):
            throw OAuthError.invalidGrant(code: 70000, "The provided authorization code was issued to a different client.")
        case .failure(.revoked):
            throw OAuthError.invalidGrant(code: 50173, "The provided grant has expired due to it being revoked, a fresh auth token is needed.")
        case .failure:
            throw OAuthError.invalidGrant(code: 70000, "The provided value for the 'code' parameter is not valid.")
        }
        notes.record(user: grant.upn)
        try CrossOrigin.checkRedemption(of: grant.redirectURI, by: client, head: head)
        try CrossOrigin.checkPKCE(grant, head: head)
        if redirect != grant.redirectURI {
            throw OAuthError.invalidGrant(code: 500117, "The reply uri specified in the request does not match the reply uri used when requesting the authorization code.")
        }
        if let challenge = grant.codeChallenge {
            guard let verifier = form.nonEmpty("code_verifier") else {
                throw OAuthError.invalidGrant(code: 50148, "The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.")
            }
            guard PKCERules.isValidVerifier(verifier) else {
                throw OAuthError.invalidGrant(
                    code: 501481, "The Code_Verifier does not match the code_challenge supplied in the authorization request. A code_verifier is 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~' (RFC 7636).")
            }
            let computed = grant.codeChallengeMethod == "S256"
                ? Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) : verifier
            guard computed == challenge else {
                throw OAuthError.invalidGrant(code: 501481, "The Code_Verifier does not match the code_challenge supplied in the authorization request.")
            }
        } else if form["code_verifier"] != nil {
            // PKCE downgrade (RFC 9700 §4.8.2): a verifier for a code issued without a challenge
            // means the authorization request was not the client's.
            throw OAuthError.invalidGrant(
                code: nil,
                "A code_verifier was sent, but the authorization request that issued the code had no code_challenge (PKCE downgrade, RFC 9700 §4.8.2).")
        }
        guard let user = directory.user(upn: grant.upn) else {
            throw OAuthError.invalidGrant(code: 50034, "The user account {EUII Hidden} does not exist in the directory.")
        }
        let capabilities = try Self.union(grant.capabilities, Issuer.capabilities(fromClaims: form["claims"]))
        return try issueUserTokens(
            user: user, client: client, scopes: grant.scopes, capabilities: capabilities, nonce: grant.nonce,
            form: form, head: head, directory: directory, authTime: grant.authTime)
    }

    /// `grant_type=refresh_token`: any scope of the tenant's APIs, like Entra's multi-resource refresh tokens.
    func refreshTokenGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard let token = form.nonEmpty("refresh_token") else { throw OAuthError.missingParameter("refresh_token") }
        let grant: RefreshTokenGrant
        switch state.refreshTokenGrant(token, clientId: client.clientId) {
        case .success(let found): grant = found
        case .failure(.expired):
            throw OAuthError.invalidGrant(code: 700082, "The refresh token has expired due to inactivity.", suberror: "token_expired")
        case .failure(.spaExpired):
            throw OAuthError.invalidGrant(
                code: 700084,
                "The refresh token was issued to a single page app (SPA), and therefore has a fixed, limited lifetime of 1.00:00:00, which cannot be extended. It is now expired and a new sign in request must be sent by the SPA to the sign in page.",
                suberror: "token_expired")
        case .failure(.wrongClient):
            throw OAuthError.invalidGrant(code: 70000, "The refresh token was issued to a different client.", suberror: "client_mismatch")
        case .failure(.revoked):
            throw OAuthError.invalidGrant(
                code: 50173, "The provided grant has expired due to it being revoked, a fresh auth token is needed.", suberror: "bad_token")
        case .failure:
            throw OAuthError.invalidGrant(code: 9002313, "Invalid request. Request is malformed or invalid.", suberror: "bad_token")
        }
        notes.record(user: grant.upn)
        if grant.isSPA, head.headerFields[.origin] == nil { throw CrossOrigin.spaOnly }
        guard let user = directory.user(upn: grant.upn) else {
            throw OAuthError.invalidGrant(code: 50034, "The user account {EUII Hidden} does not exist in the directory.")
        }
        try Self.checkEnabled(user)
        let scopes = form["scope"] == nil ? grant.scopes : try ScopeParser.parse(form["scope"], apis: directory.apis)
        return try issueUserTokens(
            user: user, client: client, scopes: scopes, capabilities: Issuer.capabilities(fromClaims: form["claims"]),
            nonce: nil, form: form, head: head, directory: directory, spaEnd: grant.isSPA ? grant.expiresAt : nil)
    }

    /// `grant_type=password` (ROPC).
    func passwordGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard let login = form.nonEmpty("username") else { throw OAuthError.missingParameter("username") }
        guard let password = form["password"] else { throw OAuthError.missingParameter("password") }
        notes.record(user: login)
        let scopes = try ScopeParser.parse(form["scope"], apis: directory.apis)
        let capabilities = try Issuer.capabilities(fromClaims: form["claims"])
        let user = try authenticate(login: login, password: password, in: directory)
        // ROPC cannot do a second factor: Entra's answer for a user who needs one.
        if user.mfaRequired {
            throw OAuthError.invalidGrant(
                code: 50076,
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access '\(scopes.resource ?? "openid")'.",
                suberror: "basic_action")
        }
        return try issueUserTokens(
            user: user, client: client, scopes: scopes, capabilities: capabilities, nonce: nil,
            form: form, head: head, directory: directory)
    }

    static func union(_ first: [String], _ second: [String]) -> [String] {
        first + second.filter { !first.contains($0) }
    }
}
