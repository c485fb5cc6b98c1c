import JSON
import Testing

/// `TestHookRoutes` at the router (only with `--test-hooks`), and the refusal a failing
/// store answers with: `storage_unavailable`, 503.
@Suite struct TestHookRouterTests {
    @Test func aFailingStoreIsA503AndBadInputIsNamed() async throws {
        try await RouterSupport.withRouter(testHooks: true) { client, _ in
            let points = try await client.control(.get, "/v1/test/crash-points")
            #expect(points.status == .ok && points.json["points"]?.arrayValue?.isEmpty == false)
            let operation = try await client.control(.post, "/v1/test/fail-storage", ["operation": "everything"])
            #expect(operation.isError(.badRequest, "bad_request") && operation.message.contains("'operation' must be one of"))
            let count = try await client.control(.post, "/v1/test/fail-storage", ["operation": "commit", "count": 0])
            #expect(count.isError(.badRequest, "bad_request") && count.message.contains("'count' must be 1 to 1000"))
            let armed = try await client.control(.post, "/v1/test/fail-storage", ["operation": "commit"])
            #expect(armed.status == .ok && armed.json["failing"] == "commit")
            let refused = try await client.control(.put, "/v1/settings/overrides", ["aadRedirectUriOverride": "chatr://x"])
            #expect(refused.isError(.serviceUnavailable, "storage_unavailable"))
            let commits = try await client.control(.get, "/v1/test/commits")
            #expect(commits.status == .ok && commits.json["commits"]?.objectValue != nil)
        }
    }
}
