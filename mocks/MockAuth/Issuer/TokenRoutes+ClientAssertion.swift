import Foundation
import HTTPTypes

extension Issuer {
    /// Authenticates `client` by its certificate credential (``ClientAssertion``).
    func checkAssertion(_ assertion: String, type: String?, client: Fixtures.ClientApp, head: HTTPRequest, directory: Fixtures) throws(OAuthError) {
        guard let type else { throw .missingParameter("client_assertion_type") }
        guard type == ClientAssertion.type else {
            throw .invalidRequest(
                code: 900144, "The client_assertion_type '\(type)' is not supported; use '\(ClientAssertion.type)'.")
        }
        let base = baseURL(head)
        try ClientAssertion(assertion).verify(
            for: client, now: state.now(),
            isTokenEndpoint: { Self.namesTokenEndpoint($0, base: base, directory: directory) },
            noteUse: { jti, digest, expiry in
                state.noteAssertion(clientId: client.clientId, jti: jti, digest: digest, expiresAt: expiry)
            })
    }

    /// How the client authenticated, as the access token's `azpacr` says it: `0` public,
    /// `1` a secret, `2` a certificate.
    static func azpacr(_ client: Fixtures.ClientApp, _ form: FormParameters) -> String {
        client.isPublic ? "0" : form.nonEmpty("client_assertion") != nil ? "2" : "1"
    }

    /// True when `aud` is the tenant's token endpoint under any name of the tenant (v2.0 or v1.0).
    static func namesTokenEndpoint(_ aud: String, base: String, directory: Fixtures) -> Bool {
        guard aud.hasPrefix(base + "/") else { return false }
        let path = aud.dropFirst(base.count + 1).split(separator: "/", maxSplits: 1).map(String.init)
        guard path.count == 2, directory.acceptsTenantSegment(path[0]) else { return false }
        return ["oauth2/v2.0/token", "oauth2/token"].contains(path[1])
    }
}
