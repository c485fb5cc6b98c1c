import Foundation
import HTTPClient
import JSON
import LocalServers

/// Checks against the mock after a load run.
enum LoadChecks {
    /// How many of `upns` the mock holds a compliance report for (`GET /_admin/state`); 0
    /// when the state cannot be read (said on stderr: the fleet then fails its check).
    static func usersCompliantAtMock(_ mock: String, upns: [String]) async -> Int {
        do {
            return usersWithCompliance(try await state(mock), upns: Set(upns)).count
        } catch {
            FileHandle.standardError.write(Data("compliance-load: counting the users compliant at the mock: \(error)\n".utf8))
            return 0
        }
    }

    /// Throws when the mock already holds an enrollment or a compliance report of one of
    /// `upns` (an earlier run's, whose users would get no 53005 and count as wrong), or when
    /// its state cannot be read.
    static func requireFresh(_ mock: String, upns: [String]) async throws(LoadError) {
        let state = try await state(mock)
        let wanted = Set(upns)
        var used = usersWithCompliance(state, upns: wanted)
        for enrollment in state["enrollments"]?.arrayValue ?? [] {
            if let upn = enrollment["upn"]?.stringValue, wanted.contains(upn) { used.insert(upn) }
        }
        guard used.isEmpty else {
            throw LoadError("the mock at \(mock) already holds enrollments or compliance reports of \(used.count) of this shard's \(upns.count) users (\(used.sorted().prefix(3).joined(separator: ", "))\(used.count > 3 ? ", …" : "")), from an earlier run: their devices would get no 53005. Run compliance-load prepare against it again (it resets the mock), or use a fresh mock.")
        }
    }

    /// The mock's state: 100,000 users make some 20 MB, beyond the HTTP client's default cap.
    static let stateLimit = 512 << 20

    private static func state(_ mock: String) async throws(LoadError) -> JSONValue {
        var configuration = HTTPClientConfiguration()
        configuration.maxResponseBytes = stateLimit
        configuration.totalTimeout = .seconds(300)
        let url = mock + "/_admin/state"
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient(configuration: configuration).get(url)
        } catch {
            throw LoadError("GET \(url): \(error)")
        }
        guard response.status == 200 else { throw LoadError("GET \(url) answered \(response.status)") }
        do {
            return try JSONValue.parse(response.body, limits: JSONLimits(maxBytes: stateLimit, maxDepth: 16))
        } catch {
            throw LoadError("GET \(url): not the mock's state (\(error))")
        }
    }

    private static func usersWithCompliance(_ state: JSONValue, upns: Set<String>) -> Set<String> {
        var found: Set<String> = []
        for user in state["users"]?.arrayValue ?? [] {
            guard let upn = user["upn"]?.stringValue, upns.contains(upn), !(user["compliantApps"]?.arrayValue ?? []).isEmpty else { continue }
            found.insert(upn)
        }
        return found
    }
}

/// A shared mock made ready for a fleet (`compliance-load prepare`): its generated users
/// and a policy that allows any account, as the unsharded run's in-process mock has.
enum LoadPreparation {
    /// Resets the mock (`POST /_admin/reset`: an earlier run's users, enrollments and compliance
    /// reports go), adds generated users 1…`devices` and opens the policy's allowed accounts
    /// (null: any account), so each device's policy stays small; returns how many users the
    /// mock holds.
    static func prepare(mock: String, devices: Int) async throws(LoadError) -> Int {
        let http = HTTPClient()
        _ = try await send(http, .post, mock + "/_admin/reset", [:])
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
