/// Validates a `scope` parameter against the tenant's protected APIs.
enum ScopeParser {
    static let oidcScopes: Set<String> = ["openid", "profile", "offline_access", "email"]
    /// Microsoft Graph's App ID URI: a scope named without a resource is Graph's, as at Entra
    /// ("scope=User.Read is equivalent to https://graph.microsoft.com/User.Read").
    static let graphResource = "https://graph.microsoft.com"
    /// Microsoft Graph's application ID, the same in every tenant.
    static let graphAppId = "00000003-0000-0000-c000-000000000000"

    /// Parses space-separated scopes into one resource plus OIDC scopes.
    ///
    /// - `api://contoso-chat/Chat.Read`, `{resource}/.default`: known resource scopes;
    /// - `openid`, `profile`, `offline_access`, `email`: OIDC;
    /// - a scope without a resource (`User.Read`): Microsoft Graph's, when the fixture defines Graph;
    /// - anything else → `invalid_scope` (AADSTS70011); two resources → AADSTS28000;
    /// - an API's `declinedScopes` are left out of the grant; none left → AADSTS65001.
    static func parse(_ scope: String?, apis: [Fixtures.ProtectedAPI]) throws(OAuthError) -> ScopeRequest {
        let items = (scope ?? "").split(separator: " ").map(String.init)
        guard !items.isEmpty else {
            throw .invalidScope(code: 70011, "The provided request must include a 'scope' input parameter.")
        }
        var request = ScopeRequest(resource: nil, resourceScopes: [], oidcScopes: [], isMAMService: false)
        for item in items {
            if oidcScopes.contains(item.lowercased()) {
                request.oidcScopes.insert(item.lowercased())
                continue
            }
            guard let (api, name) = resolve(item, apis: apis) ?? resolve(graphScope(item), apis: apis) else {
                throw .invalidScope(
                    code: 70011,
                    "The provided value for the input parameter 'scope' is not valid. The scope '\(item)' does not exist.")
            }
            if let resource = request.resource, resource != api.resource {
                throw .invalidScope(
                    code: 28000,
                    "Provided value for the input parameter scope is not valid because it contains more than one resource. Scope \(scope ?? "") is not valid.")
            }
            request.resource = api.resource
            request.audience = api.audience
            request.shortScopeNames = api.appId == graphAppId
            request.optionalClaims = api.optionalClaims
            request.isMAMService = api.isMAMService
            request.defaultScopes = api.scopes.filter { !api.declinedScopes.contains($0) && !api.consentRequiredScopes.contains($0) }
            if api.consentRequiredScopes.contains(name), !request.consentScopes.contains(name) { request.consentScopes.append(name) }
            if api.declinedScopes.contains(name) {
                if !request.declinedScopes.contains(name) { request.declinedScopes.append(name) }
                continue
            }
            if !request.resourceScopes.contains(name) { request.resourceScopes.append(name) }
        }
        if request.resource != nil, request.resourceScopes.isEmpty {
            throw .invalidScope(
                code: 65001,
                "The user or administrator has not consented to use the application for the scopes \(request.declinedScopes.joined(separator: ", ")).")
        }
        if request.resourceScopes.contains(".default"), request.resourceScopes.count > 1 {
            throw .invalidScope(
                code: 70011, "The provided value for the input parameter 'scope' is not valid. '.default' cannot be combined with other scopes.")
        }
        return request
    }

    /// Client-credential requests must ask for exactly `{resource}/.default` (AADSTS1002012).
    static func parseClientCredentials(_ scope: String?, apis: [Fixtures.ProtectedAPI]) throws(OAuthError) -> ScopeRequest {
        let request = try parse(scope, apis: apis)
        guard request.resource != nil, request.resourceScopes == [".default"], request.oidcScopes.isEmpty else {
            throw .invalidScope(
                code: 1002012,
                "The provided value for scope \(scope ?? "") is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).")
        }
        return request
    }

    /// `User.Read` → `https://graph.microsoft.com/User.Read`; a scope that names a resource
    /// (a `/` or a `:` in it) stays as it is.
    static func graphScope(_ item: String) -> String {
        item.contains("/") || item.contains(":") ? item : "\(graphResource)/\(item)"
    }

    private static func resolve(_ item: String, apis: [Fixtures.ProtectedAPI]) -> (Fixtures.ProtectedAPI, String)? {
        for api in apis {
            // The App ID URI or the application ID names the API, as at Entra.
            guard let prefix = [api.resource, api.appId].compactMap({ $0 }).first(where: { item.lowercased().hasPrefix($0.lowercased() + "/") })
            else { continue }
            let name = String(item.dropFirst(prefix.count + 1))
            if name == ".default" { return (api, name) }
            if let match = api.scopes.first(where: { $0.lowercased() == name.lowercased() }) { return (api, match) }
        }
        return nil
    }
}
