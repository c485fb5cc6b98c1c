import ChildProcess
import Foundation
import HTTPClient
import JSON
import LocalServers
import Testing

/// `compliancectl sign-in --browser | --device-code | --grant password` through the daemon to
/// mockauth, with a person played by a real headless Chromium (Debian's `chromium` and
/// `chromedriver`, driven by python3-selenium: `./run.sh test` installs them) or by HTTP on the
/// device page.
@Suite(.serialized) struct InteractiveSignInTests {
    static let browserScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser/sign_in.py").path

    /// `compliancectl sign-in ARGS` running against the daemon; waits until its stdout (or
    /// stderr) holds `marker`.
    static func startSignIn(_ directory: String, _ arguments: [String], waitingFor marker: String, onStandardError: Bool = false) async throws -> ChildProcess {
        let child = try ChildProcess(executable: ChildServer.executable("compliancectl"), arguments: ["sign-in"] + arguments + ["--state-dir", directory])
        func output() -> String { onStandardError ? child.standardError : child.standardOutput }
        let deadline = ContinuousClock.now + .seconds(60)
        while !output().contains(marker), child.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard output().contains(marker) else {
            await child.stop()
            throw CLIError("no '\(marker)' from compliancectl sign-in: \(child.standardOutput) \(child.standardError)")
        }
        return child
    }

    /// The first whitespace-free word of `text` that starts with `prefix`.
    static func word(in text: String, after prefix: String) -> String? {
        guard let range = text.range(of: prefix) else { return nil }
        return String(text[range.upperBound...].prefix { !$0.isWhitespace })
    }

    /// Runs the selenium script: a person signs in as `username` at `url`.
    static func browse(_ url: String, _ username: String, screenshot: String? = nil) async throws -> ChildProcess.Completion {
        try await ChildProcess.run(
            "/usr/bin/python3", [browserScript, url, username, "Passw0rd!"] + (screenshot.map { ["--screenshot", $0] } ?? []), timeout: .seconds(120))
    }

    @Test func aPersonSignsInInHeadlessChromiumAndTheLoopbackRedirectCompletesIt() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let signIn = try await Self.startSignIn(directory, ["bob@contoso.com", "--browser", "--no-open"], waitingFor: "Waiting for the browser")
            let url = try #require(Self.word(in: signIn.standardOutput, after: "  "))
            #expect(url.hasPrefix(mock.url) && url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"), "\(url)")
            let shot = directory + "-signin.png"
            defer { try? FileManager.default.removeItem(atPath: shot) }
            let browser = try await Self.browse(url, "bob@contoso.com", screenshot: shot)
            #expect(browser.status == 0, "\(browser.standardOutput) \(browser.standardError)")
            #expect(browser.standardOutput.contains("The sign-in's answer reached the app"), "\(browser.standardOutput)")
            #expect((try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int).map { $0 > 1000 } == true, "a screenshot of the page")
            #expect(await signIn.waitForExit(timeout: .seconds(60)))
            #expect(signIn.exitStatus == .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
            #expect(signIn.standardOutput.contains("bob@contoso.com: Compliant (0) — signed in"), "\(signIn.standardOutput)")
            // The code was redeemed with the loopback redirect and PKCE, at mockauth.
            let tokens = mock.state.requestLogEntries().filter { $0.route == "token" && $0.grantType == "authorization_code" }
            #expect(tokens.count == 1 && tokens.first?.status == 200, "\(tokens)")
        }
    }

    @Test func anotherPersonInTheBrowserIsRefusedAndNothingIsKept() async throws {
        try await DaemonCommandTests.withDaemon { directory, _ in
            // --json: the prompt goes to stderr, the answer alone to stdout.
            let signIn = try await Self.startSignIn(
                directory, ["bob@contoso.com", "--browser", "--no-open", "--json"], waitingFor: "Waiting for the browser", onStandardError: true)
            let url = try #require(Self.word(in: signIn.standardError, after: "  "))
            let browser = try await Self.browse(url, "dave@contoso.com")  // not bob
            #expect(browser.status == 0, "\(browser.standardError)")
            #expect(await signIn.waitForExit(timeout: .seconds(60)))
            #expect(signIn.exitStatus == .exited(1))
            let answer = try JSONValue.parse(signIn.standardOutput)
            #expect(answer["signedIn"] == false && answer["failure"]?["kind"] == "accountMismatch", "\(answer)")
            #expect(answer["failure"]?["message"]?.stringValue?.contains("signed in dave@contoso.com, not bob@contoso.com") == true, "\(answer)")
            let account = try await CLI.run(["accounts", "bob@contoso.com", "--json", "--state-dir", directory])
            #expect(account.json["signedIn"] == false || account.json["error"]?["code"] == "unknown_account", "\(account.stdout) \(account.stderr)")
        }
    }

    @Test func aPersonSignsInWithADeviceCode() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let signIn = try await Self.startSignIn(directory, ["bob@contoso.com", "--device-code"], waitingFor: "Waiting for the sign-in")
            let output = signIn.standardOutput
            let page = try #require(Self.word(in: output, after: "To sign in, open "))
            let code = try #require(Self.word(in: output, after: "enter the code "))
            #expect(page.hasPrefix(mock.url) && page.hasSuffix("/oauth2/v2.0/deviceauth") && code.count >= 6, "\(output)")
            // Polling meanwhile: authorization_pending, at mockauth's interval. Approved once a
            // poll was answered pending (a fixed 1.5 s let a slow first poll come after the
            // approval, and the poll count below fell short); the bound only stops a hung test.
            let devicePolls = { mock.state.requestLogEntries().filter { $0.route == "token" && $0.grantType == "urn:ietf:params:oauth:grant-type:device_code" } }
            let pendingBy = ContinuousClock.now + .seconds(120)
            while !devicePolls().contains(where: { $0.status == 400 }), signIn.isRunning, ContinuousClock.now < pendingBy {
                try await Task.sleep(for: .milliseconds(20))
            }
            let form = HTTPClientRequest.form(url: page, fields: [("user_code", code), ("login", "bob@contoso.com"), ("passwd", "Passw0rd!")])
            let done = try await HTTPClient().execute(form)
            #expect(done.bodyText.contains("You have signed in"), "\(done.bodyText)")
            #expect(await signIn.waitForExit(timeout: .seconds(60)))
            #expect(signIn.exitStatus == .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
            #expect(signIn.standardOutput.contains("bob@contoso.com: Compliant (0) — signed in"))
            let polls = devicePolls()
            #expect(polls.count >= 2 && polls.last?.status == 200 && polls.dropLast().allSatisfy { $0.status == 400 }, "\(polls.map { $0.status ?? 0 })")
        }
    }

    /// A code nobody approves ends with --timeout (issue 51 point 5), not after the code's 15 minutes.
    @Test func aDeviceCodeNobodyApprovesEndsWithTheTimeout() async throws {
        try await DaemonCommandTests.withDaemon { directory, _ in
            let result = try await CLI.run(["sign-in", "bob@contoso.com", "--device-code", "--timeout", "2", "--state-dir", directory], timeout: .seconds(120))
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("no approval within --timeout 2 s: the device-code sign-in was cancelled"), "\(result.stderr)")
            #expect(result.stdout.contains("UserCancelled"), "\(result.stdout)")
        }
    }

    /// The guide's scripted person (docs/examples/approve-device-codes.sh) approves both codes
    /// a CA-targeted user needs: the sign-in's, and the MAM service token's after the 53005.
    @Test func aScriptApprovesBothCodesOfACATargetedUser() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let script = CLI.root + "/docs/examples/approve-device-codes.sh"
            let output = directory + "-sign-in.out"
            defer { try? FileManager.default.removeItem(atPath: output) }
            let shell = """
                "$CTL" sign-in alice@contoso.com --device-code --timeout 120 --scope api://contoso-chat/Chat.Read --state-dir "$DIR" > "$OUT" &
                pid=$!
                "$SCRIPT" "$URL" alice@contoso.com "$OUT" "$pid" "${CERT:-}"
                wait "$pid"
                """
            let environment = ProcessInfo.processInfo.environment.merging([
                "CTL": ChildServer.executable("compliancectl"), "DIR": directory, "OUT": output, "SCRIPT": script, "URL": mock.url,
            ]) { $1 }
            let result = try await ChildProcess.run("/bin/bash", ["-c", shell], environment: environment, timeout: .seconds(180))
            let signIn = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(result.status == 0, "\(result.standardOutput) \(result.standardError) \(signIn)")
            let approvals = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("approved device code ") }
            #expect(approvals.count == 2, "\(result.standardOutput)")
            #expect(signIn.contains("alice@contoso.com: Compliant (0) — signed in"), "\(signIn)")
            #expect(signIn.contains("The sign-in needs you again"), "\(signIn)")
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func ctrlCCancelsADeviceCodeSignIn(signal: Int32) async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let signIn = try await Self.startSignIn(directory, ["bob@contoso.com", "--device-code"], waitingFor: "Waiting for the sign-in")
            signIn.send(signal)
            #expect(await signIn.waitForExit(timeout: .seconds(30)))
            #expect(signIn.exitStatus == .exited(130), "\(signIn.standardOutput) \(signIn.standardError)")
            #expect(signIn.standardOutput.contains("UserCancelled"), "\(signIn.standardOutput)")
            // The daemon stopped polling: no device-code poll after the answer.
            let before = mock.state.requestLogEntries().filter { $0.route == "token" }.count
            try await Task.sleep(for: .milliseconds(2500))
            #expect(mock.state.requestLogEntries().filter { $0.route == "token" }.count == before)
        }
    }

    @Test func thePasswordGrantSignsInAndWarnsOnAnEntraAuthority() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let result = try await CLI.run(["sign-in", "bob@contoso.com", "--grant", "password", "--password-stdin", "--state-dir", directory], input: "Passw0rd!\n")
            #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("warning: the password grant"), "\(result.stderr)")
            #expect(mock.state.requestLogEntries().contains { $0.route == "token" && $0.grantType == "password" })
            #expect(!mock.state.requestLogEntries().contains { $0.route == "authorize" }, "no sign-in page")
        }
    }

    @Test func conflictingSignInMethodsAreUsageErrors() async throws {
        let cases: [[String]] = [
            ["--browser", "--device-code"], ["--browser", "--silent"], ["--grant", "client_credentials"], ["--device-code", "--password-stdin"],
            ["--no-open"], ["--browser", "--timeout", "0"], ["--timeout", "5"], ["--device-code", "--timeout", "0"],
        ]
        for arguments in cases {
            let result = try await CLI.run(["sign-in", "bob@contoso.com"] + arguments + ["--socket", "/nonexistent.sock"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    /// mockauth as a generic OpenID Connect issuer, with its confidential client: the password
    /// grant with the secret by HTTP Basic, a silent token, and a partly declined scope refused.
    @Test func aConfidentialClientAtAnOIDCIssuerGetsTokensAndAPartlyDeclinedScopeFails() async throws {
        try await InProcessMockAuth.run { mock in
            try await ThirdPartyIssuer.withSecretFile("web-s3cret") { secret in
                let issuer = "\(mock.url)/8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d/v2.0"
                let arguments = ["--client-id", "chatr-web", "--client-secret-file", secret, "--client-auth", "basic"]
                try await ThirdPartyIssuer.withDaemon(issuer, arguments) { state in
                    let read = "api://contoso-chat/Chat.Read", admin = "api://contoso-chat/Chat.Admin"
                    let signIn = try await CLI.run(
                        ["sign-in", "bob@contoso.com", "--grant", "password", "--password-stdin", "--scope", read, "--json", "--state-dir", state], input: "Passw0rd!\n")
                    #expect(signIn.status == 0 && signIn.json["signedIn"] == true, "\(signIn.stdout) \(signIn.stderr)")
                    #expect(!signIn.stderr.contains("warning"), "no Entra warning for an OpenID Connect issuer: \(signIn.stderr)")
                    let basic = mock.state.requestLogEntries().filter { $0.route == "token" && $0.grantType == "password" }
                    #expect(basic.count == 1 && basic.first?.status == 200, "\(basic)")
                    let silent = try await CLI.run(["token", "bob@contoso.com", "--scope", read, "--json", "--state-dir", state])
                    #expect(silent.status == 0 && silent.json["token"]?["accessToken"] != nil, "\(silent.stdout)")
                    let declined = try await CLI.run(["token", "bob@contoso.com", "--scope", read, "--scope", admin, "--json", "--state-dir", state])
                    #expect(declined.status == 1 && declined.json["failure"]?["kind"] == "declinedScopes", "\(declined.stdout)")
                    #expect(declined.json["failure"]?["declinedScopes"] == [.string(admin)], "\(declined.stdout)")
                }
            }
        }
    }
}
