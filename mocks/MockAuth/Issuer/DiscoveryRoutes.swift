import Foundation
import Hummingbird
import JSON

extension Issuer {
    /// `GET /{tenant}/v2.0/.well-known/openid-configuration`, `GET /{tenant}/discovery/v2.0/keys`
    /// and `GET /common/discovery/instance`.
    func addDiscoveryRoutes(to router: Router<MockRequestContext>) {
        // Registered under the parameter: a constant `common` segment would shadow every
        // other `/common/...` route in Hummingbird's trie (it does not backtrack).
        router.get("/:tenant/discovery/instance") { request, context in
            guard try context.pathParameter("tenant").lowercased() == "common" else {
                throw OAuthError(status: .notFound, error: "not_found", aadsts: nil, message: "Instance discovery lives at /common/discovery/instance.")
            }
            return try self.instanceDiscovery(request: request)
        }
        router.get("/:tenant/userrealm/:username") { request, context in
            guard try context.pathParameter("tenant").lowercased() == "common" else {
                throw OAuthError(status: .notFound, error: "not_found", aadsts: nil, message: "User realm discovery lives at /common/userrealm/{username}.")
            }
            let username = try context.pathParameter("username")
            return Response.json(self.userRealm(username: username))
        }
        router.get("/:tenant/v2.0/.well-known/openid-configuration") { request, context in
            let segment = try context.pathParameter("tenant")
            let directory = try self.directory(forTenant: segment)
            return Response.json(self.openIDConfiguration(base: self.baseURL(request.head), segment: segment, directory: directory))
        }
        router.get("/:tenant/discovery/v2.0/keys") { request, context in
            let segment = try context.pathParameter("tenant")
            let directory = try self.directory(forTenant: segment)
            let issuer = JSONValue.string(self.issuerURL(base: self.baseURL(request.head), tenantId: directory.tenant.id))
            let keys = try self.state.keyRing.publishedKeys(now: self.state.now()).map { key -> JSONValue in
                var jwk = key.objectValue ?? JSONObject()
                jwk["issuer"] = issuer
                return .object(jwk)
            }
            return Response.json(["keys": .array(keys)])
        }
    }

    /// The OpenID Provider metadata: Entra's v2.0 member set, in Entra's order, less what the
    /// mock does not do (mocks/README.md, "mockauth vs Entra", says which and why).
    func openIDConfiguration(base: String, segment: String, directory: Fixtures) -> JSONValue {
        let multiTenant = ["common", "organizations"].contains(segment.lowercased())
        let personal = directory.accounts == .personal
        let pathTenant = multiTenant || personal ? segment.lowercased() : directory.tenant.id
        let issuer = multiTenant ? "\(base)/{tenantid}/v2.0"
            : issuerURL(base: base, tenantId: personal ? Fixtures.microsoftAccountTenantId : directory.tenant.id)
        let endpoint = { (suffix: String) -> JSONValue in .string("\(base)/\(pathTenant)/\(suffix)") }
        return [
            "token_endpoint": endpoint("oauth2/v2.0/token"),
            "token_endpoint_auth_methods_supported": ["client_secret_post", "private_key_jwt", "client_secret_basic"],
            "jwks_uri": endpoint("discovery/v2.0/keys"),
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "response_types_supported": ["code"],
            "scopes_supported": ["openid", "profile", "email", "offline_access"],
            "issuer": .string(issuer),
            "request_uri_parameter_supported": false,
            "userinfo_endpoint": endpoint("openid/userinfo"),
            "authorization_endpoint": endpoint("oauth2/v2.0/authorize"),
            "device_authorization_endpoint": endpoint("oauth2/v2.0/devicecode"),
            "http_logout_supported": true,
            "frontchannel_logout_supported": true,
            "end_session_endpoint": endpoint("oauth2/v2.0/logout"),
            "claims_supported": [
                "sub", "iss", "cloud_instance_name", "cloud_instance_host_name", "cloud_graph_host_name", "msgraph_host",
                "aud", "exp", "iat", "auth_time", "acr", "nonce", "preferred_username", "name", "tid", "ver", "at_hash",
                "c_hash", "email",
            ],
            "tenant_region_scope": "NA",
            "cloud_instance_name": "mockauth.local",
            "cloud_graph_host_name": "graph.windows.net",
            "msgraph_host": "graph.microsoft.com",
            "rbac_url": "https://pas.windows.net",
        ]
    }

    /// MSAL's instance discovery: the tenant discovery endpoint for the given
    /// `authorization_endpoint`, and this host's aliases as `metadata`.
    func instanceDiscovery(request: Request) throws -> Response {
        let query = try request.queryParameters
        let base = baseURL(request.head)
        let ourHost = URL(string: base)?.host ?? ""
        let port = URL(string: base)?.port
        let withPort = { (host: String) in port.map { "\(host):\($0)" } ?? host }
        var tenant = "common"
        if let endpoint = query.nonEmpty("authorization_endpoint") {
            guard let url = URL(string: endpoint), let host = url.host,
                [ourHost, "localhost", "127.0.0.1"].contains(host.lowercased()), url.port == port
            else {
                return OAuthError(error: "invalid_instance", aadsts: 50049, message: "Unknown or invalid instance.")
                    .response(for: request)
            }
            let segments = url.path.split(separator: "/")
            if let first = segments.first { tenant = String(first) }
        }
        let aliases: [JSONValue] = Array(Set([withPort(ourHost), withPort("localhost"), withPort("127.0.0.1")]))
            .sorted().map { .string($0) }
        return Response.json([
            "tenant_discovery_endpoint": .string("\(base)/\(tenant)/v2.0/.well-known/openid-configuration"),
            "api-version": .string(query["api-version"] ?? "1.1"),
            "metadata": [
                [
                    "preferred_network": .string(withPort(ourHost)),
                    "preferred_cache": .string(withPort(ourHost)),
                    "aliases": .array(aliases),
                ]
            ],
        ])
    }

    /// MSAL's user realm discovery: every account of the tenant's domain is `Managed`
    /// (password grant goes straight to the token endpoint); other domains are `Unknown`.
    func userRealm(username: String) -> JSONValue {
        let directory = state.directory
        let domain = username.split(separator: "@").last.map { $0.lowercased() } ?? ""
        let managed = domain == directory.tenant.domain.lowercased()
        return [
            "ver": "1.0",
            "account_type": managed ? "Managed" : "Unknown",
            "domain_name": .string(managed ? directory.tenant.domain : domain),
            "cloud_instance_name": "mockauth.local",
            "cloud_audience_urn": "urn:federation:MicrosoftOnline",
        ]
    }
}
