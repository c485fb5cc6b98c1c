import Hummingbird

extension Issuer {
    /// `prompt=consent`: the consent page for the signed-in `user` (SignInPage.consent). Its
    /// Accept posts the request back and completes it by the session; Cancel is `access_denied`.
    func consentPage(
        action: String, hidden: [(String, String)], user: Fixtures.User, scopes: ScopeRequest, authorize: AuthorizeRequest,
        directory: Fixtures
    ) -> Response {
        let permissions = scopes.responseScope.split(separator: " ").map(String.init)
        return .html(SignInPage.consent(
            action: action, tenantName: directory.tenant.displayName, tenantDomain: directory.tenant.domain,
            clientName: authorize.client.displayName, account: user.upn, permissions: permissions, hidden: hidden))
    }
}
