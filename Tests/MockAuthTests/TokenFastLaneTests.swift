import Foundation
import JSON
import Synchronization
import Testing
import LocalServers

@testable import MockAuth

/// ``TokenFastLane`` answers token requests in the connection's pipeline; the router answers
/// the rest. Both must give the same answers, keep a pipelining client's order, and leave
/// the router what only it can do (faults, oversized bodies).
@Suite("Token requests answered in the pipeline")
struct TokenFastLaneTests {
    static let passwordForm =
        "grant_type=password&client_id=chatr&username=bob%40contoso.com&password=Passw0rd%21&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read"

    /// POSTs `form` to the token endpoint with curl; returns (status, lowercased header names, body, header values).
    static func post(
        _ server: LiveServer.Running, _ form: String, headers: [String] = [], tenant: String = "contoso.com"
    ) async throws -> (Int, Set<String>, JSONValue, [String: String]) {
        let arguments = ["-sS", "--max-time", "60", "-D", "-", "-X", "POST", "--data-binary", form]
            + headers.flatMap { ["-H", $0] } + [server.url + "/\(tenant)/oauth2/v2.0/token"]
        let result = try await Command.run("/usr/bin/curl", arguments, timeout: .seconds(90))  // hang guards
        try #require(result.status == 0, "curl: \(result.stderr)")
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let headLines = parts[0].components(separatedBy: "\r\n")
        let status = Int(headLines[0].split(separator: " ")[1]) ?? 0
        var values: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, Set(values.keys), try JSONValue.parse(parts.dropFirst().joined(separator: "\r\n\r\n")), values)
    }

    static func answered(_ server: LiveServer.Running) -> Int { server.state.pipelineTokenAnswers.load(ordering: .relaxed) }

    @Test("a token request gets the same answer, headers and log line in the pipeline as from the router")
    func sameAnswerOnBothLanes() async throws {
        try await LiveServer.run(https: false) { server in
            let before = Self.answered(server)
            let fast = try await Self.post(server, Self.passwordForm)
            #expect(Self.answered(server) == before + 1)
            // `Connection: close` is left to the router (it closes after the answer).
            let routed = try await Self.post(server, Self.passwordForm, headers: ["Connection: close"])
            #expect(Self.answered(server) == before + 1)
            #expect(fast.0 == 200 && routed.0 == 200)
            #expect(fast.1 == routed.1)
            #expect(fast.1.isSuperset(of: ["content-type", "cache-control", "pragma", "content-length", "date", "server"]))
            for name in ["content-type", "cache-control", "pragma", "server"] { #expect(fast.3[name] == routed.3[name], "\(name)") }
            // RFC 9110 IMF-fixdate, e.g. `Mon, 23 Nov 2026 09:14:42 GMT`, as Hummingbird writes it.
            let imf = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/
            #expect(fast.3["date"]?.wholeMatch(of: imf) != nil, "\(fast.3["date"] ?? "no Date")")
            #expect(routed.3["date"]?.wholeMatch(of: imf) != nil, "\(routed.3["date"] ?? "no Date")")
            #expect(fast.2.objectValue?.keys.sorted() == routed.2.objectValue?.keys.sorted())
            #expect(fast.2["scope"] == routed.2["scope"])

            let wrong = Self.passwordForm.replacingOccurrences(of: "Passw0rd%21", with: "nope")
            let fastError = try await Self.post(server, wrong)
            let routedError = try await Self.post(server, wrong, headers: ["Connection: close"])
            #expect(Self.answered(server) == before + 2)
            #expect(fastError.0 == 400 && routedError.0 == 400)
            #expect(fastError.1 == routedError.1)
            #expect(fastError.2["error"] == "invalid_grant" && routedError.2["error"] == "invalid_grant")
            #expect(fastError.2["error_codes"] == routedError.2["error_codes"])

            let log = server.state.requestLogEntries().suffix(4)
            #expect(log.map(\.status) == [200, 200, 400, 400])
            #expect(log.allSatisfy { $0.route == "token" && $0.grantType == "password" && $0.user == "bob@contoso.com" })
            #expect(log.allSatisfy { $0.path == "/contoso.com/oauth2/v2.0/token" })
        }
    }

    @Test("pipelined requests are answered in order when the router answers the one before a token request")
    func pipelinedAnswersKeepTheirOrder() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try #require(server.url.split(separator: ":").last.flatMap { Int($0) })
            let token = "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(Self.passwordForm.utf8.count)\r\n\r\n\(Self.passwordForm)"
            let bytes = "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + token
                + "GET /contoso.com/discovery/v2.0/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let before = Self.answered(server)
            let received = try await RawHTTPClient.exchange(port: port, bytes: bytes)
            let answers = received.components(separatedBy: "HTTP/1.1 ").dropFirst()
            try #require(answers.count == 3, "answers: \(received.prefix(2000))")
            let order = answers.map { answer in
                answer.contains("authorization_endpoint") ? "discovery" : answer.contains("access_token") ? "token" : answer.contains("\"keys\"") ? "keys" : "?"
            }
            #expect(order == ["discovery", "token", "keys"])
            // The token request arrived while the router still had the discovery request.
            #expect(Self.answered(server) == before)
        }
    }

    @Test("an armed fault and an oversized body go to the router; the next token request is answered in the pipeline")
    func faultsAndOversizedBodiesGoToTheRouter() async throws {
        try await LiveServer.run(https: false) { server in
            let before = Self.answered(server)
            _ = try server.state.addFault(JSONObject([("route", "token"), ("status", 503), ("count", 1)]))
            let faulted = try await Self.post(server, Self.passwordForm)
            #expect(faulted.0 == 503)
            #expect(faulted.2["error"] == "temporarily_unavailable")

            let oversized = Self.passwordForm + "&padding=" + String(repeating: "a", count: MockAuthLimits.maxRequestBodyBytes)
            let refused = try await Self.post(server, oversized)
            #expect(refused.0 == 413)
            #expect(refused.2["error"] == "invalid_request")
            #expect(Self.answered(server) == before)

            let served = try await Self.post(server, Self.passwordForm)
            #expect(served.0 == 200)
            #expect(Self.answered(server) == before + 1)
            let log = server.state.requestLogEntries().suffix(3)
            #expect(log.map(\.status) == [503, 413, 200])
            #expect(log.first?.fault?.contains("503") == true)
        }
    }

    @Test("a client that does not read its answers is not read either; once it reads, every answer arrives")
    func unreadAnswersStopTheReading() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try #require(server.url.split(separator: ":").last.flatMap { Int($0) })
            // Requests the fast lane answers without signing and with an answer of over 16 KiB
            // (an unknown grant type, which the error names), enough that their answers are
            // three times what the kernel can hold for the connection (the send buffer's
            // ceiling, plus 1 MiB for the rest).
            let sendBufferCeiling = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8))?
                .split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } ?? 4 << 20
            let count = 3 * (sendBufferCeiling + (1 << 20)) / (16 << 10)
            let form = "grant_type=\(String(repeating: "x", count: 16 << 10))&client_id=chatr"
            func request(_ extra: String = "") -> String {
                "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
            }
            let bytes = Array((String(repeating: request(), count: count - 1) + request("Connection: close\r\n")).utf8)
            let before = Self.answered(server)
            let (answeredWhileStalled, answers) = try await Self.onThread {
                let client = try StallingHTTPClient(port: port, requests: bytes)
                var last = -1
                try client.sendUntilStalled(quiet: .seconds(1), limit: .seconds(120)) {
                    let now = Self.answered(server)
                    defer { last = now }
                    return now == last
                }
                let stalled = Self.answered(server) - before
                return (stalled, try client.drain(counting: "HTTP/1.1 400", limit: .seconds(120)))
            }
            // Without back-pressure the server reads and answers everything at once.
            #expect(answeredWhileStalled < count / 2, "answered \(answeredWhileStalled) of \(count) before the client read")
            #expect(answers == count)
            #expect(Self.answered(server) - before == count - 1)
        }
    }

    /// Runs blocking socket work on a thread of its own, never on the cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test("the router's own groups are not tenants: /mam and /_admin token paths get its 404")
    func routerGroupsAreNotTenants() async throws {
        try await LiveServer.run(https: false) { server in
            let before = Self.answered(server)
            for tenant in ["mam", "_admin"] {
                let answer = try await Self.post(server, Self.passwordForm, tenant: tenant)
                #expect(answer.0 == 404, "\(tenant)")
                #expect(answer.2["error"] == "not_found", "\(tenant)")
            }
            #expect(Self.answered(server) == before)
        }
    }
}
