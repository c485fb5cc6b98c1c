import Foundation
import HTTPTypes
import JSON

extension Issuer {
    static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with `requested_token_use=on_behalf_of`:
    /// a middle-tier API (a confidential client whose application ID is the incoming token's
    /// audience) exchanges the user's access token for a downstream API's.
    ///
    /// What the user's token carried goes on: the user, the client app the user signed in to
    /// (its compliance decides app-protection CA) and its `xms_cc`. The middle tier's own consent
    /// is checked (65001). A CA refusal reaches the middle tier with a `claims` challenge it can
    /// hand to its caller, as Entra's OBO answers do.
    func onBehalfOfGrant(_ form: FormParameters, head: HTTPRequest, notes: RequestNotes, directory: Fixtures) throws -> JSONValue {
        let client = try authenticateClient(form, head: head, directory: directory)
        guard !client.isPublic else {
            throw OAuthError.invalidClient(code: 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
        }
        guard let use = form.nonEmpty("requested_token_use") else { throw OAuthError.missingParameter("requested_token_use") }
        guard use == "on_behalf_of" else {
            throw OAuthError.invalidRequest(code: 900144, "The requested_token_use '\(use)' is not supported; use 'on_behalf_of'.")
        }
        guard let assertion = form.nonEmpty("assertion") else { throw OAuthError.missingParameter("assertion") }
        let claims = try userAssertionClaims(assertion, for: client, directory: directory)
        guard let oid = claims["oid"]?.stringValue, claims["scp"] != nil,
            let user = directory.user(objectId: oid)
        else {
            throw OAuthError.invalidGrant(code: 50013, "Assertion is invalid: it is not a delegated user token of this directory (no 'scp', or an unknown 'oid').")
        }
        notes.record(user: user.upn)
        try Self.checkEnabled(user)
        let scopes = try ScopeParser.parse(form["scope"], apis: directory.apis)
        let carried = claims["xms_cc"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let capabilities = try Self.union(carried, Issuer.capabilities(fromClaims: form["claims"]))
        do {
            return try issueUserTokens(
                user: user, client: client, scopes: scopes, capabilities: capabilities, nonce: nil,
                form: form, head: head, directory: directory, caClientId: claims["azp"]?.stringValue)
        } catch var error as OAuthError where [53005, 53009].contains(error.aadsts ?? 0) {
            error.extra["claims"] = ConditionalAccess.claimsChallenge
            throw error
        }
    }

    /// The user's token, verified as this issuer's (signature, `exp`/`nbf`, this tenant), with the
    /// middle tier as its audience (its application ID, or an App ID URI of the API it is).
    private func userAssertionClaims(_ assertion: String, for client: Fixtures.ClientApp, directory: Fixtures) throws(OAuthError) -> JSONValue {
        let claims: JSONValue
        do {
            claims = try JWT.verify(assertion, keys: state.keyRing, audience: nil, now: state.now())
        } catch .expired, .notYetValid {
            throw .invalidGrant(
                code: 500133, "Assertion is not within its valid time range. Ensure that the access token is not expired before using it for user assertion, or request a new token.")
        } catch {
            throw .invalidGrant(code: 50013, "Assertion failed signature validation: \(error).")
        }
        guard claims["tid"]?.stringValue == directory.tenant.id || claims["tid"]?.stringValue == Fixtures.microsoftAccountTenantId else {
            throw .invalidGrant(code: 50013, "Assertion is invalid: it was issued for another tenant.")
        }
        let aud = claims["aud"]?.stringValue ?? ""
        let names = [client.clientId] + directory.apis.filter { $0.appId == client.clientId.lowercased() }.map(\.resource)
        guard names.contains(where: { $0.lowercased() == aud.lowercased() }) else {
            throw .invalidGrant(
                code: 500131,
                "Assertion audience does not match the Client app presenting the assertion. The audience in the assertion was '\(aud)' and the expected audience is '\(client.clientId)' or one of the Application Uris of this application with App ID '\(client.clientId)'(\(client.displayName)). The downstream client must request a token for the expected audience (the application that made the OBO request) and this application should use that token as the assertion.")
        }
        return claims
    }
}
