import Hummingbird

extension Issuer {
    /// `GET /{tenant}/oauth2/v2.0/logout`: ends the browser session (the sign-in page's
    /// cookie) and redirects to `post_logout_redirect_uri` when it is a registered redirect
    /// URI of some app, else shows a page.
    func addLogoutRoutes(to router: Router<MockRequestContext>) {
        router.get("/:tenant/oauth2/v2.0/logout") { request, context in
            let directory = try self.directory(forTenant: context.pathParameter("tenant"))
            if let id = request.cookies[Self.sessionCookie]?.value {
                if let upn = self.state.sessionUser(id) { context.note.record(user: upn) }
                self.state.endSession(id)
            }
            let target = try request.queryParameters.nonEmpty("post_logout_redirect_uri")
            let registered = directory.clients.flatMap(\.allRedirectURIs)
            var response: Response
            if let target, registered.contains(where: { AuthorizeRequest.matches(target, registered: $0) }) {
                response = .redirect(to: target)
            } else {
                response = .html("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Signed out</title></head><body><p>You signed out of your account.</p></body></html>")
            }
            response.headers[.setCookie] = "\(Self.sessionCookie)=; Path=/; Max-Age=0"
            return response
        }
    }
}
