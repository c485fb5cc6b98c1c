import Hummingbird
import JSON

extension Issuer {
    /// `GET`/`POST /{tenant}/openid/userinfo`: the discovery document's `userinfo_endpoint`
    /// (OIDC Core §5.3). Entra serves it on Microsoft Graph (`graph.microsoft.com/oidc/userinfo`)
    /// for a Graph token; the mock serves it itself and takes any of its user access tokens of
    /// the tenant (signature, expiry). Answers `sub` (the id token's), `name`, `given_name`,
    /// `family_name` and `email` (the UPN); a missing or refused token is 401 with
    /// `WWW-Authenticate: Bearer error="invalid_token"`.
    func addUserInfoRoutes(to router: Router<MockRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/:tenant/openid/userinfo", method: method) { request, context in
                let directory = try self.directory(forTenant: context.pathParameter("tenant"))
                let caller = self.userInfoUser(request, directory: directory)
                if let caller, let challenge = ContinuousAccess.challenge(for: caller.claims, user: caller.user, state: self.state) {
                    return Response(
                        status: .unauthorized, headers: [.wwwAuthenticate: challenge, .contentLength: "0", .cacheControl: "no-store"])
                }
                guard let (claims, found) = caller, found.accountEnabled, let clientId = claims["azp"]?.stringValue else {
                    return Response(
                        status: .unauthorized,
                        headers: [.wwwAuthenticate: #"Bearer error="invalid_token", error_description="send a valid access token of this tenant""#,
                                  .contentLength: "0", .cacheControl: "no-store"])
                }
                let user = (upn: found.upn, displayName: found.displayName, objectId: found.objectId, clientId: clientId)
                context.note.record(user: user.upn)
                let names = user.displayName.split(separator: " ", maxSplits: 1).map(String.init)
                var body = JSONObject([("sub", .string(TokenMinter.subject(objectId: user.objectId, clientId: user.clientId)))])
                body["name"] = .string(user.displayName)
                if names.count == 2 {
                    body["given_name"] = .string(names[0])
                    body["family_name"] = .string(names[1])
                }
                body["email"] = .string(user.upn)
                return Response.json(.object(body))
            }
        }
    }

    /// The verified claims of a user bearer token of the tenant, and its user (enabled or not).
    private func userInfoUser(_ request: Request, directory: Fixtures) -> (claims: JSONValue, user: Fixtures.User)? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
            let claims = try? JWT.verify(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces), keys: state.keyRing, audience: nil, now: state.now()),
            let oid = claims["oid"]?.stringValue, claims["scp"] != nil,
            let user = directory.user(objectId: oid), claims["tid"]?.stringValue == directory.tenantId(of: user)
        else { return nil }
        return (claims, user)
    }
}
