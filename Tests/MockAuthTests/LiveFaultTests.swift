import Foundation
import JSON
import Testing
import LocalServers

@testable import MockAuth

/// Connection-level faults need a real socket: curl reports each as its own failure.
@Suite("Live connection faults")
struct LiveFaultTests {
    static func curl(_ url: String) async throws -> Command.Result {
        try await Command.run(
            "/usr/bin/curl", ["-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", url], timeout: .seconds(20))
    }

    @Test("reset, close and truncated faults break the connection as announced; the next request succeeds")
    func connectionFaults() async throws {
        let results = try await LiveServer.run(https: false) { server in
            let keys = server.url + "/contoso.com/discovery/v2.0/keys"
            var results: [String: Command.Result] = [:]
            for action in ["reset", "close", "truncated"] {
                server.state.clearFaults()
                _ = try server.state.addFault(JSONObject([("route", "keys"), ("action", .string(action))]))
                results[action] = try await Self.curl(keys)
            }
            results["after"] = try await Self.curl(keys)
            let log = server.state.requestLogEntries()
            let faulted = log.filter { $0.fault != nil }
            #expect(faulted.count == 3)
            // reset and close sent no answer, so the log names no status for them.
            #expect(faulted.map(\.status) == [nil, nil, 200], "\(faulted)")
            return results
        }
        // curl: 56 = failure receiving (reset), 52 = empty reply (close), 18 = partial file (truncated).
        #expect(results["reset"]?.status == 56, "reset: \(results["reset"]?.stderr ?? "")")
        #expect(results["close"]?.status == 52, "close: \(results["close"]?.stderr ?? "")")
        #expect(results["truncated"]?.status == 18, "truncated: \(results["truncated"]?.stderr ?? "")")
        #expect(results["after"]?.status == 0)
        #expect(results["after"]?.stdout == "200")
    }
}
