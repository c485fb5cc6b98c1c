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

    /// A held request gets no answer, so a client's own timeout fires however slow the machine
    /// is; the admin API shows it held and lets it go on, and then it is answered.
    @Test("a hold fault answers nothing until released: a client's timeout fires first; released, the request is answered")
    func holdFault() async throws {
        try await LiveServer.run(https: false) { server in
            let keys = server.url + "/contoso.com/discovery/v2.0/keys"
            _ = try server.state.addFault(JSONObject([("route", "keys"), ("action", "hold"), ("count", 2)]))
            let impatient = try await Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "1", "-o", "/dev/null", "-w", "%{http_code}", keys], timeout: .seconds(60))
            #expect(impatient.status == 28, "curl --max-time 1 against a held request: \(impatient.stderr)")  // 28: timed out
            // curl's close only half-closes the connection: the request is (or, when it arrived
            // late, soon is) held until released.
            let deadline = ContinuousClock.now + .seconds(300)
            while server.state.held.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.state.held.releaseAll() == 1)

            // A patient client (the bound only stops a hung test): held, seen held through the
            // admin API, released through it, answered.
            async let patient = Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "300", "-o", "/dev/null", "-w", "%{http_code}", keys], timeout: .seconds(320))
            while server.state.held.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let held = try await Command.run("/usr/bin/curl", ["-sS", server.url + "/_admin/faults/held"], timeout: .seconds(60))
            #expect(try JSONValue.parse(Array(held.stdout.utf8))["held"] == 1, "\(held.stdout)")
            let released = try await Command.run("/usr/bin/curl", ["-sS", "-X", "POST", server.url + "/_admin/faults/release"], timeout: .seconds(60))
            #expect(try JSONValue.parse(Array(released.stdout.utf8))["released"] == 1, "\(released.stdout)")
            let answered = try await patient
            #expect(answered.status == 0 && answered.stdout == "200", "\(answered.stderr)")
            #expect(server.state.held.count == 0)

            // Clearing the faults releases what is held too.
            _ = try server.state.addFault(JSONObject([("route", "keys"), ("action", "hold")]))
            async let cleared = Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "300", "-o", "/dev/null", "-w", "%{http_code}", keys], timeout: .seconds(320))
            while server.state.held.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            server.state.clearFaults()
            #expect(try await cleared.stdout == "200")
        }
    }

    /// A request still held when the server stops is released by the stop (a graceful
    /// shutdown waits for every request): the stop ends, the request is answered. The time
    /// limit only stops a hung test.
    @Test("the server's stop releases a held request", .timeLimit(.minutes(5)))
    func stopReleasesAHeldRequest() async throws {
        let request = try await LiveServer.run(https: false) { server in
            _ = try server.state.addFault(JSONObject([("route", "keys"), ("action", "hold")]))
            let keys = server.url + "/contoso.com/discovery/v2.0/keys"
            let request = Task {
                try await Command.run("/usr/bin/curl", ["-sS", "--max-time", "300", "-o", "/dev/null", "-w", "%{http_code}", keys], timeout: .seconds(320))
            }
            let deadline = ContinuousClock.now + .seconds(100)
            while server.state.held.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.state.held.count == 1)
            return request
        }
        let answered = try await request.value
        #expect(answered.status == 0 && answered.stdout == "200", "\(answered.stderr)")
    }
}
