import ChildProcess
import Foundation
import HTTPClient
import JSON
import LocalServers
import Testing

/// A third-party OpenID Connect provider: django-oauth-toolkit (PyPI, pinned), configured by
/// `oidc-provider/provider.py` on 127.0.0.1 with a port the system picks, with its own login
/// page (Django's CSRF-protected form). The daemon reaches it with `--oidc-issuer` and no MAM
/// service; people sign in in headless Chromium.
enum ThirdPartyIssuer {
    static let packages = ["django-oauth-toolkit==3.4.1", "oauthlib==3.3.1", "Django==5.2.19"]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("oidc-provider/provider.py").path

    /// Runs `body` with the provider's issuer URL (`http://127.0.0.1:PORT/o`); stops it after.
    static func run(_ body: @Sendable (String) async throws -> Void) async throws {
        let state = NSTemporaryDirectory() + "oidc-provider-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        try await withPythonServer(script, [state], what: "the OpenID Connect provider", body)
    }

    /// Runs `script ARGUMENTS` in the provider's virtualenv, waits for its
    /// `listening on URL` line, runs `body` with the URL, and stops it (SIGTERM, then SIGKILL).
    static func withPythonServer(_ script: String, _ arguments: [String], what: String, _ body: @Sendable (String) async throws -> Void) async throws {
        let python = try await PythonVenv.python("oidc-provider-venv", packages: packages, module: "oauth2_provider")
        let server = try ChildProcess(executable: python, arguments: [script] + arguments)
        guard let line = await server.firstLine(timeout: .seconds(120)), line.hasPrefix("listening on ") else {
            await server.stop()
            throw CLIError("\(what) did not start: \(server.standardError.suffix(2000))")
        }
        do {
            try await body(String(line.dropFirst("listening on ".count)))
        } catch {
            await server.stop(graceful: .seconds(5))
            throw error
        }
        await server.stop(graceful: .seconds(5))
    }

    /// `secret` in an owner-only file (`mode`) of a fresh directory, removed after `body`.
    static func withSecretFile(_ secret: String, mode: Int = 0o600, _ body: @Sendable (String) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "secret-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/secret"
        guard FileManager.default.createFile(atPath: path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: mode]) else {
            throw CLIError("cannot write \(path)")
        }
        try await body(path)
    }

    /// Runs `body` with the test double (`oidc-provider/double.py`) in front of `upstream`:
    /// its issuer URL, and a function that sets its mode (`pass`, `wrong-aud`, `bad-signature`,
    /// `decline:SCOPE`).
    static func withDouble(
        inFrontOf upstream: String, _ body: @Sendable (String, @Sendable (String) async throws -> Void) async throws -> Void
    ) async throws {
        let script = URL(fileURLWithPath: Self.script).deletingLastPathComponent().appendingPathComponent("double.py").path
        try await withPythonServer(script, [upstream], what: "the test double") { issuer in
            let setMode: @Sendable (String) async throws -> Void = { mode in
                var request = HTTPClientRequest(method: .post, url: issuer + "/mode", body: Array(mode.utf8))
                request.headers.replaceOrAdd(name: "Content-Type", value: "text/plain")
                let answer = try await HTTPClient().execute(request)
                guard answer.status == 200 else { throw CLIError("the double refused mode \(mode): \(answer.bodyText)") }
            }
            try await body(issuer, setMode)
        }
    }

    /// A daemon on a fresh state directory against `issuer` with `arguments` (client id,
    /// secret…); stopped after `body`.
    static func withDaemon(_ issuer: String, _ arguments: [String], _ body: @Sendable (String) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "ctl-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try ChildServer("complianced", arguments: [
            "--state-dir", directory, "--app", CLI.root + "/mocks/fixtures/apps/chatr-Info.plist", "--oidc-issuer", issuer,
            "--clock", "virtual", "--log-level", "warning",
        ] + arguments)
        guard await daemon.firstLine(timeout: .seconds(30)) != nil else {
            let stderr = daemon.stderr
            await daemon.stop()
            throw CLIError("complianced did not start: \(stderr)")
        }
        do {
            try await body(directory)
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    /// `compliancectl sign-in UPN --browser` completed by `person` in headless Chromium on the
    /// provider's login page; the command's completion.
    static func browserSignIn(_ directory: String, _ upn: String, as person: String) async throws -> (signIn: ChildProcess, browser: ChildProcess.Completion) {
        let signIn = try await InteractiveSignInTests.startSignIn(
            directory, [upn, "--browser", "--no-open", "--json"], waitingFor: "Waiting for the browser", onStandardError: true)
        let url = try #require(InteractiveSignInTests.word(in: signIn.standardError, after: "  "))
        let browser = try await InteractiveSignInTests.browse(url, person)
        _ = await signIn.waitForExit(timeout: .seconds(60))
        return (signIn, browser)
    }
}

/// One at a time: each starts a Django server and a Chromium, heavy for a 2-core machine
/// that runs the rest of the suite meanwhile.
@Suite(.serialized) struct ThirdPartyIssuerTests {
    @Test func aPersonSignsInOnTheProvidersOwnLoginPageAndTheIDTokenIsChecked() async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-native"]) { directory in
                let (signIn, browser) = try await ThirdPartyIssuer.browserSignIn(directory, "erin@example.org", as: "erin@example.org")
                #expect(browser.status == 0, "\(browser.standardOutput) \(browser.standardError)")
                #expect(signIn.exitStatus == .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
                let answer = try JSONValue.parse(signIn.standardOutput)
                #expect(answer["signedIn"] == true && answer["token"]?["accessToken"]?.stringValue?.isEmpty == false, "\(answer)")
                // Silent afterwards: the cached token (no MAM service: nothing registered).
                let silent = try await CLI.run(["sign-in", "erin@example.org", "--silent", "--json", "--state-dir", directory])
                #expect(silent.status == 0 && silent.json["signedIn"] == true, "\(silent.stdout) \(silent.stderr)")
                let account = try await CLI.run(["accounts", "erin@example.org", "--json", "--state-dir", directory])
                #expect(account.json["signedIn"] == true && account.json["enrollment"]?["state"] == "unregistered", "\(account.stdout) \(account.stderr)")
            }
        }
    }

    @Test func anotherPersonAtTheLoginPageIsAnAccountMismatch() async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-native"]) { directory in
                let (signIn, browser) = try await ThirdPartyIssuer.browserSignIn(directory, "erin@example.org", as: "frank@example.org")
                #expect(browser.status == 0, "\(browser.standardError)")
                #expect(signIn.exitStatus == .exited(1))
                let answer = try JSONValue.parse(signIn.standardOutput)
                #expect(answer["failure"]?["kind"] == "accountMismatch", "\(answer)")
                #expect(answer["failure"]?["message"]?.stringValue?.contains("frank@example.org, not erin@example.org") == true, "\(answer)")
            }
        }
    }

    @Test(arguments: ["basic", "post"])
    func aConfidentialClientSignsInWithItsSecretFile(method: String) async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withSecretFile("web-s3cret") { secret in
                let arguments = ["--client-id", "compliance-web", "--client-secret-file", secret, "--client-auth", method]
                try await ThirdPartyIssuer.withDaemon(issuer, arguments) { state in
                    let (signIn, browser) = try await ThirdPartyIssuer.browserSignIn(state, "erin@example.org", as: "erin@example.org")
                    #expect(browser.status == 0, "\(browser.standardError)")
                    #expect(signIn.exitStatus == .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
                    #expect(!signIn.standardOutput.contains("web-s3cret") && !signIn.standardError.contains("web-s3cret"))
                }
            }
        }
    }

    @Test func aWrongClientSecretIsRefusedAtTheCodesRedemption() async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withSecretFile("not-the-secret", mode: 0o400) { secret in
                try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-web", "--client-secret-file", secret]) { state in
                    let (signIn, _) = try await ThirdPartyIssuer.browserSignIn(state, "erin@example.org", as: "erin@example.org")
                    #expect(signIn.exitStatus == .exited(1))
                    let answer = try JSONValue.parse(signIn.standardOutput)
                    #expect(answer["failure"]?["kind"] == "requestRejected" && answer["signedIn"] == false, "\(answer)")
                    #expect(answer["failure"]?["message"]?.stringValue?.contains("invalid_client") == true, "\(answer)")
                    #expect(!signIn.standardOutput.contains("not-the-secret") && !signIn.standardError.contains("not-the-secret"))
                }
            }
        }
    }

    /// Device code (RFC 8628) at the provider: a person completes it in headless Chromium on
    /// the provider's own pages (login, code, Accept) while the daemon polls at its 5 s interval.
    @Test func aPersonSignsInWithADeviceCodeOnTheProvidersPages() async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-device"]) { directory in
                let signIn = try await InteractiveSignInTests.startSignIn(directory, ["erin@example.org", "--device-code"], waitingFor: "Waiting for the sign-in")
                let uri = try #require(InteractiveSignInTests.word(in: signIn.standardOutput, after: "To sign in, open "))
                let code = try #require(InteractiveSignInTests.word(in: signIn.standardOutput, after: "enter the code "))
                #expect(uri == issuer + "/device/", "\(signIn.standardOutput)")
                let script = URL(fileURLWithPath: InteractiveSignInTests.browserScript).deletingLastPathComponent().appendingPathComponent("device_sign_in.py").path
                let person = try await ChildProcess.run("/usr/bin/python3", [script, uri, code, "erin@example.org", "Passw0rd!"], timeout: .seconds(120))
                #expect(person.status == 0, "\(person.standardOutput) \(person.standardError)")
                #expect(await signIn.waitForExit(timeout: .seconds(60)))
                #expect(signIn.exitStatus == .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
                #expect(signIn.standardOutput.contains("erin@example.org: Compliant (0) — signed in"), "\(signIn.standardOutput)")
            }
        }
    }

    @Test func thePasswordGrantSignsInWithoutTheEntraWarning() async throws {
        try await ThirdPartyIssuer.run { issuer in
            try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-ropc"]) { directory in
                let result = try await CLI.run(
                    ["sign-in", "frank@example.org", "--grant", "password", "--password-stdin", "--json", "--state-dir", directory], input: "Passw0rd!\n")
                #expect(result.status == 0 && result.json["signedIn"] == true, "\(result.stdout) \(result.stderr)")
                #expect(!result.stderr.contains("warning"), "\(result.stderr)")
                let wrong = try await CLI.run(
                    ["sign-in", "erin@example.org", "--grant", "password", "--password-stdin", "--json", "--state-dir", directory], input: "nope\n")
                #expect(wrong.status == 1 && wrong.json["signedIn"] == false, "\(wrong.stdout)")
            }
        }
    }

    @Test func anIssuerURLThatIsNotTheDocumentsIssuerIsRefusedAtStart() async throws {
        try await ThirdPartyIssuer.run { issuer in
            let directory = NSTemporaryDirectory() + "ctl-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The provider answers discovery under /o only; the host alone has no document.
            let host = String(issuer.dropLast("/o".count))
            let result = try await Command.run(
                ChildServer.executable("complianced"),
                ["--state-dir", directory, "--app", CLI.root + "/mocks/fixtures/apps/chatr-Info.plist", "--oidc-issuer", host, "--client-id", "compliance-native"],
                timeout: .seconds(30))
            #expect(result.status == 2 && result.stderr.contains("--oidc-issuer \(host)"), "\(result.stderr)")
        }
    }

    /// One person's tokens over their life at the provider, with the double in front of it:
    /// a silent refresh, then answers a provider must never send (another client's `aud`, a
    /// broken signature, a scope left out), then a refresh token the provider revoked.
    @Test func refreshesAndWhatTheDaemonRefusesOnThem() async throws {
        try await ThirdPartyIssuer.run { provider in
            try await ThirdPartyIssuer.withDouble(inFrontOf: provider) { issuer, mode in
                try await ThirdPartyIssuer.withDaemon(issuer, ["--client-id", "compliance-native", "--scope", "notes.read"]) { directory in
                    func silent() async throws -> CLI.Result {
                        _ = try await CLI.run(["clock", "advance", "2h", "--state-dir", directory])  // past the access token's hour
                        return try await CLI.run(["sign-in", "erin@example.org", "--silent", "--json", "--state-dir", directory])
                    }
                    let (first, browser) = try await ThirdPartyIssuer.browserSignIn(directory, "erin@example.org", as: "erin@example.org")
                    #expect(
                        browser.status == 0 && first.exitStatus == .exited(0),
                        "browser: \(browser.standardOutput) \(browser.standardError); sign-in: \(first.standardOutput) \(first.standardError)")

                    let refreshed = try await silent()
                    #expect(refreshed.status == 0 && refreshed.json["signedIn"] == true, "a silent refresh: \(refreshed.stdout)")

                    try await mode("wrong-aud")
                    let wrongAudience = try await silent()
                    #expect(wrongAudience.status != 0 && wrongAudience.json["failure"]?["kind"] == "malformedResponse", "\(wrongAudience.stdout)")
                    #expect(wrongAudience.json["failure"]?["message"]?.stringValue?.contains("is for 'another-client', not for this app") == true, "\(wrongAudience.stdout)")

                    try await mode("bad-signature")
                    let forged = try await silent()
                    #expect(forged.status != 0 && forged.json["failure"]?["message"]?.stringValue?.contains("signature does not verify") == true, "\(forged.stdout)")

                    try await mode("decline:notes.read")
                    let declined = try await silent()
                    #expect(declined.status != 0 && declined.json["failure"]?["kind"] == "declinedScopes", "\(declined.stdout)")

                    try await mode("pass")
                    let revoke = try await HTTPClient().execute(HTTPClientRequest(method: .post, url: String(provider.dropLast("/o".count)) + "/test/revoke-refresh-tokens"))
                    #expect(revoke.status == 200, "\(revoke.bodyText)")
                    let revoked = try await silent()
                    #expect(revoked.status == 1 && revoked.json["failure"]?["kind"] == "interactionRequired", "a revoked refresh token: sign in again: \(revoked.stdout)")
                    let (again, _) = try await ThirdPartyIssuer.browserSignIn(directory, "erin@example.org", as: "erin@example.org")
                    #expect(again.exitStatus == .exited(0), "\(again.standardOutput) \(again.standardError)")
                }
            }
        }
    }

    /// `compliancectl run --oidc-issuer`: a flow whose credentials are parameters runs against
    /// the provider; its admin step fails naming the issuer and the step.
    @Test func flowsRunAgainstAnyIssuerWithTheirCredentialsAsParameters() async throws {
        try await ThirdPartyIssuer.run { issuer in
            let directory = NSTemporaryDirectory() + "flows-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let flow = """
                {"name": "a person at any issuer", "description": "password grant, then an admin step",
                 "fixture": "\(CLI.root)/mocks/fixtures/contoso.json", "app": "\(CLI.root)/mocks/fixtures/apps/chatr-Info.plist",
                 "parameters": {"account": "erin@example.org"},
                 "steps": [
                   {"do": "signIn", "account": "${account}", "password": "${password}", "grant": "password", "expect": {"signedIn": true}},
                   {"do": "expectAccount", "account": "${account}", "signedIn": true, "enrollment": "unregistered"},
                   {"do": "targetCA", "account": "${account}"}
                 ]}
                """
            #expect(FileManager.default.createFile(atPath: directory + "/any-issuer.json", contents: Data(flow.utf8)))
            let common = [directory, "--oidc-issuer", issuer, "--client-id", "compliance-ropc", "--json"]

            let missing = try await CLI.run(["run"] + common)
            #expect(missing.status == 65 && missing.json["errors"]?[0]?["step"] == 1, "\(missing.stdout) \(missing.stderr)")
            #expect(missing.json["errors"]?[0]?["reason"]?.stringValue?.hasPrefix("unknown parameter '${password}'") == true, "\(missing.stdout)")

            let result = try await CLI.run(["run"] + common + ["--param", "password=Passw0rd!"])
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            let steps = result.json["flows"]?[0]?["steps"]?.arrayValue ?? []
            #expect(steps.count == 3, "\(result.stdout)")
            #expect(steps.prefix(2).allSatisfy { $0["result"] == "passed" }, "\(result.stdout)")
            #expect(steps.last?["detail"]?.stringValue == "the issuer at \(issuer) has no admin API (step 3)", "\(result.stdout)")
            #expect(!result.stdout.contains("Passw0rd!") && !result.stderr.contains("Passw0rd!"), "the password is not printed")
        }
    }
}
