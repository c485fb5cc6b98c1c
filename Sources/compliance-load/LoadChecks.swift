import HTTPClient
import JSON
import LocalServers

/// Checks against the mock after a load run.
enum LoadChecks {
    /// How many of `upns` the mock holds a compliance report for (`GET /_admin/state`).
    static func usersCompliantAtMock(_ mock: String, upns: [String]) async -> Int {
        guard let response = try? await HTTPClient().get(mock + "/_admin/state"), response.status == 200,
              let users = (try? JSONValue.parse(response.body, limits: JSONLimits(maxBytes: 256 << 20, maxDepth: 16)))?["users"]?.arrayValue
        else { return 0 }
        let wanted = Set(upns)
        return users.filter { user in
            guard let upn = user["upn"]?.stringValue, wanted.contains(upn) else { return false }
            return !(user["compliantApps"]?.arrayValue ?? []).isEmpty
        }.count
    }
}

/// A shared mock made ready for a fleet (`compliance-load prepare`): its generated users
/// and a policy that allows any account, as the unsharded run's in-process mock has.
enum LoadPreparation {
    /// Adds generated users 1…`devices` (those present are kept) and opens the policy's
    /// allowed accounts (null: any account), so each device's policy stays small; returns how
    /// many users the mock holds.
    static func prepare(mock: String, devices: Int) async throws(LoadError) -> Int {
        let http = HTTPClient()
        let generate = try await send(http, .post, mock + "/_admin/users/generate", ["count": .int(Int64(devices))])
        _ = try await send(http, .put, mock + "/_admin/policy/allowed-accounts", ["allowedAccounts": .null])
        return Int(generate["users"]?.intValue ?? 0)
    }

    private static func send(_ http: HTTPClient, _ method: HTTPClientMethod, _ url: String, _ body: JSONValue) async throws(LoadError) -> JSONValue {
        let response: HTTPClientResponse
        do {
            response = try await http.execute(HTTPClientRequest(
                method: method, url: url, headers: ["Content-Type": "application/json"], body: Array(body.encodedString().utf8), timeout: .seconds(120)))
        } catch {
            throw LoadError("\(method) \(url): \(error)")
        }
        guard response.status == 200 else { throw LoadError("\(method) \(url) answered \(response.status): \(String(decoding: response.body.prefix(500), as: UTF8.self))") }
        return (try? JSONValue.parse(response.body)) ?? .null
    }
}
