import Foundation
import HTTPClient
import JSON
import LocalServers
import Testing

/// What an operator meets: systemd's readiness protocol, Prometheus metrics, JSON logs and
/// `--version`, on the real `complianced` executable.
@Suite struct OperationsTests {
    @Test func tellsSystemdReadyWatchdogAndStopping() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let notify = try NotifySocket()
                let daemon = try await DaemonProcess(
                    stateDirectory: directory, authority: mock.authority,
                    environment: ProcessInfo.processInfo.environment.merging(
                        ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"]) { _, new in new })
                let ready = await notify.waitFor("READY=1", timeout: .seconds(60))  // hang guards: a busy machine starts slowly
                let pid = daemon.child.child.pid
                #expect(ready?.contains("MAINPID=\(pid)") == true, "READY=1 names the daemon: \(ready ?? "nothing")")
                // WatchdogSec=0.4 s: a WATCHDOG=1 every 0.2 s while it serves.
                #expect(await notify.waitFor("WATCHDOG=1", timeout: .seconds(60)) != nil)
                kill(pid, SIGTERM)
                #expect(await notify.waitFor("STOPPING=1", timeout: .seconds(60)) != nil)  // a hang guard: the first minute of a full run is busy
                #expect(await daemon.child.waitForExit(timeout: .seconds(30)))
                #expect(daemon.child.exitStatus == .exited(0))
                await daemon.stop()
            }
        }
    }

    @Test func withoutNotifySocketItSendsNothingAndStillStarts() async throws {
        try await DaemonProcess.with { daemon, _ in
            let status = try await daemon.call(.get, "/v1/health")
            #expect(status.status == 200)
        }
    }

    @Test func servesMetricsOfWhatItDid() async throws {
        try await DaemonProcess.with(extra: ["--metrics-listen", "127.0.0.1:0"]) { daemon, _ in
            let metricsURL = try #require(daemon.readyLine.split(separator: " ").last.map(String.init))
            #expect(daemon.readyLine.contains(" metrics http://127.0.0.1:"))
            #expect(metricsURL.hasSuffix("/metrics"))
            // alice: 53005, remediation (enroll, compliance), then a token; then a cache hit.
            let signIn = try await daemon.call(.post, "/v1/sign-in", [
                "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
            ])
            #expect(signIn.json["signedIn"] == true, "\(signIn.json)")
            let token = try await daemon.call(.post, "/v1/token", ["account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "silent": true])
            #expect(token.json["status"]?["code"] == 0 || token.json["statusCode"] == 0 || token.status == 200, "\(token.json)")
            let http = HTTPClient()
            let response = try await http.execute(HTTPClientRequest(method: .get, url: metricsURL))
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains(#"complianced_remediations_total{outcome="Compliant"} 1"#), "\(text)")
            #expect(text.contains(#"complianced_enrollment_statuses_total{operation="enrollment",status="100"} 1"#), "\(text)")
            #expect(Self.value(text, #"complianced_token_cache_total{result="hit"}"#) ?? 0 >= 1, "\(text)")
            #expect(Self.value(text, #"complianced_token_cache_total{result="miss"}"#) ?? 0 >= 1, "\(text)")
            #expect(text.contains(#"complianced_mam_request_duration_seconds_count{request="enroll"} 1"#), "\(text)")
            #expect(text.contains("complianced_issuer_request_duration_seconds_bucket"), "\(text)")
            // A wipe is counted once it is stored.
            let deregistered = try await daemon.call(.post, "/v1/deregister", ["account": "alice@contoso.com", "wipe": true])
            #expect(deregistered.status == 200, "\(deregistered.json)")
            let after = String(decoding: try await http.execute(HTTPClientRequest(method: .get, url: metricsURL)).body, as: UTF8.self)
            #expect(after.contains(#"complianced_wipes_started_total{reason="deregistered"} 1"#), "\(after)")
            #expect(after.contains("complianced_wipes_total 1"), "\(after)")
            let health = try await http.execute(HTTPClientRequest(method: .get, url: metricsURL.replacingOccurrences(of: "/metrics", with: "/health")))
            #expect(try JSONValue.parse(health.body)["status"] == "ok")
        }
    }

    @Test func metricsListenIsLoopbackOnly() async throws {
        let run = try await Command.run(ChildServer.executable("complianced"), [
            "--state-dir", NSTemporaryDirectory() + "never-" + UUID().uuidString, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist",
            "--metrics-listen", "0.0.0.0:9464",
        ], timeout: .seconds(60))
        #expect(run.status == 64)
        #expect(run.stderr.contains("--metrics-listen must be 127.0.0.1:PORT (loopback only), got '0.0.0.0:9464'"), "\(run.stderr)")
    }

    /// A hook of blanks would run `/bin/sh -c "   "`, which exits 0: every answer a silent Success.
    @Test(arguments: ["--wipe-hook", "--restart-hook", "--identity-hook"])
    func aBlankHookIsAUsageError(_ option: String) async throws {
        let run = try await Command.run(ChildServer.executable("complianced"), [
            "--state-dir", NSTemporaryDirectory() + "never-" + UUID().uuidString, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist",
            option, "  \t ",
        ], timeout: .seconds(60))
        #expect(run.status == 64)
        #expect(run.stderr.contains("\(option) is blank"), "\(run.stderr)")
    }

    @Test func jsonLogsAreOneObjectALineAndKeepSecretsOut() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let child = try ChildServer("complianced", arguments: [
                    "--state-dir", directory, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist", "--authority", mock.authority,
                    "--clock", "virtual", "--log-format", "json", "--log-level", "trace",
                ])
                let ready = try #require(await child.firstLine(timeout: .seconds(30)))
                let record = try JSONValue.parse(Array(ready.utf8))
                #expect(record["message"]?.stringValue == "listening on unix:\(directory)/control.sock")
                var configuration = HTTPClientConfiguration()
                configuration.unixSocketPath = directory + "/control.sock"
                configuration.totalTimeout = .seconds(150)  // a hang guard: a sign-in on a busy machine took over 30 s
                let control = HTTPClient(configuration: configuration)
                let request: JSONValue = [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ]
                let signIn = try await control.execute(HTTPClientRequest.json(method: .post, url: "http://localhost/v1/sign-in", body: request.encoded()))
                #expect(signIn.status == 200)
                let token = try JSONValue.parse(signIn.body)
                await child.stop()
                let lines = child.stderr.split(separator: "\n")
                #expect(lines.count > 10, "trace logs a line per machine action")
                for line in lines {
                    let parsed = try JSONValue.parse(Array(line.utf8))
                    for key in ["time", "level", "label", "message"] {
                        #expect(parsed[key]?.stringValue != nil, "\(key) missing in \(line)")
                    }
                }
                #expect(!child.stderr.contains("Passw0rd!"))
                if let access = token["token"]?["accessToken"]?.stringValue ?? token["accessToken"]?.stringValue {
                    #expect(!child.stderr.contains(access))
                }
                #expect(!child.stderr.contains("eyJ"), "no JWT in the logs")
            }
        }
    }

    @Test(arguments: ["complianced", "compliancectl", "mockauth"])
    func printsTheVersion(program: String) async throws {
        let run = try await Command.run(ChildServer.executable(program), ["--version"], timeout: .seconds(60))
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3, "\(run.stdout)")
    }

    /// The value of the sample `name{labels}` in a Prometheus exposition.
    static func value(_ text: String, _ sample: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }
}
