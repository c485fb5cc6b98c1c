import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import LocalServers
import NIOCore
import Testing

@testable import MockAuth

/// `GET /health`, `GET /metrics` (what each counter counts) and `mockauth serve --log-format json`.
@Suite("mockauth for operators: health, metrics, JSON logs")
struct OperationalRoutesTests {
    @Test("/health answers ok and stays out of the request log")
    func health() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (status, body) = try await client.sendJSON("/health", method: .get)
            #expect(status == .ok)
            #expect(body["status"] == "ok")
            _ = try await client.execute(uri: "/metrics", method: .get)
            #expect(state.requestLogEntries().isEmpty, "scrapes are not requests of the app under test")
        }
    }

    @Test("/metrics counts tokens by grant, errors by AADSTS code, CA blocks, MAM calls and faults")
    func countsWhatHappened() async throws {
        try await TestSupport.withRouterApp { client, _ in
            // bob: no CA → a token (password grant).
            let (bobStatus, _) = try await client.passwordToken("bob@contoso.com")
            #expect(bobStatus == .ok)
            // alice with protapp: 53005; without: 53009.
            let (blocked, _) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(blocked == .badRequest)
            _ = try await client.passwordToken("alice@contoso.com")
            // A wrong password: invalid_grant 50126.
            _ = try await client.passwordToken("bob@contoso.com", password: "wrong")
            // MAM: alice enrolls (100), then a call without a token (401).
            let token = try await MAMServiceTests.mamToken(client, "alice@contoso.com")
            _ = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            _ = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": "x"])
            // A fault armed and fired on the token endpoint.
            _ = try await client.sendJSON("/_admin/faults", ["route": "token", "count": 1, "status": 503])
            _ = try await client.passwordToken("bob@contoso.com")

            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(buffer: response.body)
            for sample in [
                #"mockauth_tokens_issued_total{grant="password"} 2"#,  // bob's, and alice's MAM token
                #"mockauth_ca_blocks_total{aadsts="53005"} 1"#,
                #"mockauth_ca_blocks_total{aadsts="53009"} 1"#,
                #"mockauth_errors_total{endpoint="token",error="unauthorized_client",aadsts="53005"} 1"#,
                #"mockauth_errors_total{endpoint="token",error="invalid_grant",aadsts="53009"} 1"#,
                #"mockauth_errors_total{endpoint="token",error="invalid_grant",aadsts="50126"} 1"#,
                #"mockauth_mam_requests_total{route="enroll",http_status="200",mam_status="100"} 1"#,
                #"mockauth_mam_requests_total{route="checkin",http_status="401",mam_status="none"} 1"#,
                #"mockauth_faults_fired_total{route="token",action="none"} 1"#,
                "# TYPE mockauth_tokens_issued_total counter",
            ] {
                #expect(text.contains(sample), "missing \(sample) in\n\(text)")
            }
        }
    }

    @Test("`mockauth serve --log-format json` writes only JSON lines, the ready line included")
    func jsonLogs() async throws {
        let server = try ChildServer("mockauth", arguments: [
            "serve", "--port", "0", "--fixtures", TestSupport.fixturesPath, "--log-format", "json", "--log-level", "debug",
        ])
        let ready = try #require(await server.firstLine(timeout: .seconds(30)), "no first line: \(server.stderr)")
        let record = try JSONValue.parse(Array(ready.utf8))
        let url = try #require(record["metadata"]?["server.url"]?.stringValue)
        #expect(record["message"]?.stringValue == "listening on \(url)")
        let token = try await Command.run(
            "/usr/bin/curl", [
                "-sS", "--max-time", "10", url + "/contoso.com/oauth2/v2.0/token", "-d", "grant_type=password", "-d", "client_id=chatr",
                "-d", "username=bob@contoso.com", "--data-urlencode", "password=Passw0rd!", "-d", "scope=api://contoso-chat/Chat.Read",
            ], timeout: .seconds(20))
        let metrics = try await Command.run("/usr/bin/curl", ["-sS", "--max-time", "10", url + "/metrics"], timeout: .seconds(20))
        server.child.send(SIGTERM)
        _ = await server.waitForExit(timeout: .seconds(30))
        await server.stop()
        #expect(metrics.stdout.contains(#"mockauth_tokens_issued_total{grant="password"} 1"#), "\(metrics.stdout)")
        let lines = (server.child.standardOutput + server.stderr).split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            let parsed = try JSONValue.parse(Array(line.utf8))
            for key in ["time", "level", "label", "message"] { #expect(parsed[key]?.stringValue != nil, "\(key) missing: \(line)") }
        }
        let access = try JSONValue.parse(token.stdout)["access_token"]?.stringValue ?? "missing"
        #expect(!server.stderr.contains(access))
        #expect(!server.stderr.contains("Passw0rd!"))
    }

    @Test("--log-format takes text or json")
    func badLogFormat() async throws {
        let result = try await Command.run(ChildServer.executable("mockauth"), ["serve", "--log-format", "xml"], timeout: .seconds(20))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--log-format must be text or json, got 'xml'"), "\(result.stderr)")
    }
}
