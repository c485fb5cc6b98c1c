import HTTPClient
import JSON
import LocalServers

/// Checks against the mock after a load run.
enum LoadChecks {
    /// How many of `upns` the mock holds a compliance report for (`GET /_admin/state`).
    static func usersCompliantAtMock(_ mock: InProcessMockAuth.Running, upns: [String]) async -> Int {
        guard let response = try? await HTTPClient().get(mock.url + "/_admin/state"), response.status == 200,
              let users = (try? JSONValue.parse(response.body, limits: JSONLimits(maxBytes: 256 << 20, maxDepth: 16)))?["users"]?.arrayValue
        else { return 0 }
        let wanted = Set(upns)
        return users.filter { user in
            guard let upn = user["upn"]?.stringValue, wanted.contains(upn) else { return false }
            return !(user["compliantApps"]?.arrayValue ?? []).isEmpty
        }.count
    }
}
