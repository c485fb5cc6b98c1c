import JSON
import Testing

/// `AppRoutes` at the router: the app, its restart report, its app configuration.
@Suite struct AppRouterTests {
    @Test func theAppAndARestartNobodyOwes() async throws {
        try await RouterSupport.withRouter { client, _ in
            let app = try await client.control(.get, "/v1/app")
            #expect(app.status == .ok && app.json.objectValue?.isEmpty == false)
            let restarted = try await client.control(.post, "/v1/app/restarted")
            #expect(restarted.isError(.conflict, "conflict"), "the app owes no restart")
        }
    }

    @Test func appConfigQueriesAreChecked() async throws {
        try await RouterSupport.withRouter { client, _ in
            let noKey = try await client.control(.get, "/v1/accounts/alice@contoso.com/app-config?query=max")
            #expect(noKey.isError(.badRequest, "bad_request") && noKey.message.contains("'query' needs 'key'"))
            let unknown = try await client.control(.get, "/v1/accounts/alice@contoso.com/app-config?keys=a")
            #expect(unknown.isError(.badRequest, "bad_request") && unknown.message.contains("unknown query parameter 'keys'"))
            let unknownAccount = try await client.control(.get, "/v1/accounts/alice@contoso.com/app-config?key=a&query=max")
            #expect(unknownAccount.isError(.notFound, "unknown_account"), "nobody signed in")
        }
    }
}
