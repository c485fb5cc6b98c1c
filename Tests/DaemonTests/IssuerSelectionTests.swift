import Foundation
import JSON
import LocalServers
import Testing

/// `complianced --oidc-issuer`, `--client-id`, `--client-secret-file` and `--client-auth`
/// against a real mockauth: the discovery document must name the issuer configured, a secret
/// file must be its owner's alone, and without a MAM service nothing is registered or remediated.
@Suite struct IssuerSelectionTests {
    static let tenantID = "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"
    static let bob: JSONValue = ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]]

    /// mockauth as a generic OpenID Connect issuer: the URL its discovery document names.
    static func issuer(_ mock: InProcessMockAuth.Running) -> String { "\(mock.url)/\(tenantID)/v2.0" }

    static func start(_ stateDirectory: String, _ arguments: [String]) async throws -> Command.Result {
        try await Command.run(
            ChildServer.executable("complianced"),
            ["--state-dir", stateDirectory, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist", "--clock", "virtual"] + arguments,
            timeout: .seconds(30))
    }

    static func withDaemon(
        _ mock: InProcessMockAuth.Running, _ issuer: [String], _ body: @Sendable (DaemonProcess) async throws -> Void
    ) async throws {
        try await CrashResumeTests.withStateDirectory { directory in
            let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, issuer: issuer)
            do { try await body(daemon) } catch {
                await daemon.stop()
                throw error
            }
            await daemon.stop()
        }
    }

    /// A secret file with `mode` in a fresh directory, removed after `body`.
    static func withSecretFile(_ secret: String, mode: mode_t, _ body: (String) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "secret-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/client-secret"
        #expect(FileManager.default.createFile(atPath: path, contents: Data((secret + "\n").utf8)))
        #expect(chmod(path, mode) == 0)
        try await body(path)
    }

    @Test func anIssuerWhoseDiscoveryNamesAnotherIsRefusedAtStart() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                // The domain alias serves a document naming the tenant id: not the URL configured.
                let configured = "\(mock.url)/contoso.com/v2.0"
                let result = try await Self.start(directory, ["--oidc-issuer", configured])
                #expect(result.status == 2, "\(result.stderr)")
                #expect(result.stderr.contains("--oidc-issuer \(configured)"), "\(result.stderr)")
                #expect(result.stderr.contains("names the issuer '\(Self.issuer(mock))', not '\(configured)'"), "\(result.stderr)")
            }
        }
    }

    @Test func conflictingOrIncompleteIssuerOptionsAreUsageErrors() async throws {
        try await CrashResumeTests.withStateDirectory { directory in
            let cases: [([String], String)] = [
                (["--authority", "http://127.0.0.1:9/contoso.com", "--oidc-issuer", "http://127.0.0.1:9/x"], "not both"),
                (["--authority", "http://127.0.0.1:9/contoso.com", "--client-auth", "post"], "--client-auth needs --client-secret-file"),
                (["--authority", "http://127.0.0.1:9/contoso.com", "--client-auth", "jwt", "--client-secret-file", "/x"], "must be basic or post"),
                (["--oidc-issuer", "ftp://127.0.0.1:9/x"], "must be an http(s) URL"),
                (["--authority", "http://admin:Hunter2@127.0.0.1:9/contoso.com"], "must not hold user information"),
                (["--authority", "http://127.0.0.1:9/contoso.com", "--client-id", ""], "--client-id is empty"),
            ]
            for (arguments, message) in cases {
                let result = try await Self.start(directory, arguments)
                #expect(result.status == 64 || result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: directory), "nothing created for \(arguments)")
            }
        }
    }

    @Test func aSecretFileOthersMayReadIsRefusedBeforeAnythingIsCreated() async throws {
        try await CrashResumeTests.withStateDirectory { directory in
            for mode: mode_t in [0o644, 0o640, 0o604] {
                try await Self.withSecretFile("web-s3cret", mode: mode) { path in
                    let result = try await Self.start(directory, ["--authority", "http://127.0.0.1:9/contoso.com", "--client-secret-file", path])
                    #expect(result.status == 2, "\(result.stderr)")
                    #expect(result.stderr.contains("--client-secret-file '\(path)' may be read by other users (mode \(String(mode, radix: 8)))"), "\(result.stderr)")
                    #expect(!result.stderr.contains("web-s3cret"))
                }
            }
            try await Self.withSecretFile("", mode: 0o600) { path in
                let result = try await Self.start(directory, ["--authority", "http://127.0.0.1:9/contoso.com", "--client-secret-file", path])
                #expect(result.status == 2 && result.stderr.contains("is empty"), "\(result.stderr)")
            }
            let missing = try await Self.start(directory, ["--authority", "http://127.0.0.1:9/contoso.com", "--client-secret-file", directory + "-none"])
            #expect(missing.status == 2 && missing.stderr.contains("cannot be read"), "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory))
        }
    }

    @Test(arguments: ["basic", "post"])
    func aConfidentialClientSignsInWithItsSecret(method: String) async throws {
        try await InProcessMockAuth.run { mock in
            try await Self.withSecretFile("web-s3cret", mode: 0o600) { path in
                let arguments = ["--authority", mock.authority, "--client-id", "chatr-web", "--client-secret-file", path, "--client-auth", method]
                try await Self.withDaemon(mock, arguments) { daemon in
                    let signIn = try await daemon.call(.post, "/v1/sign-in", Self.bob)
                    #expect(signIn.status == 200 && signIn.json["signedIn"] == true, "\(signIn.json)")
                }
            }
            try await Self.withSecretFile("not-the-secret", mode: 0o400) { path in
                let arguments = ["--authority", mock.authority, "--client-id", "chatr-web", "--client-secret-file", path, "--client-auth", method]
                try await Self.withDaemon(mock, arguments) { daemon in
                    let signIn = try await daemon.call(.post, "/v1/sign-in", Self.bob)
                    #expect(signIn.json["signedIn"] != true, "\(signIn.json)")
                    let text = "\(signIn.json)"
                    #expect(signIn.json["failure"]?["kind"] == "requestRejected" && signIn.json["failure"]?["errorCodes"] == [7000215], "\(text)")
                    #expect(text.contains("client secret"), "\(text)")
                    #expect(!text.contains("not-the-secret"))
                }
            }
        }
    }

    @Test func anOpenIDConnectIssuerWithoutMAMSignsInButNeitherRegistersNorRemediates() async throws {
        try await InProcessMockAuth.run { mock in
            try await Self.withDaemon(mock, ["--oidc-issuer", Self.issuer(mock)]) { daemon in
                let signIn = try await daemon.call(.post, "/v1/sign-in", Self.bob)
                #expect(signIn.status == 200 && signIn.json["signedIn"] == true, "\(signIn.json)")
                // alice's token meets the 53005 answer: with no MAM service it is reported, not remediated.
                let alice = try await daemon.call(.post, "/v1/sign-in", ["account": "alice@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
                #expect(alice.json["signedIn"] == false && alice.json["remediated"] == false, "\(alice.json)")
                #expect(alice.json["failure"]?["errorCodes"] == [53005] && alice.json["status"]?["name"] == "NotCompliant", "\(alice.json)")
                let remediate = try await daemon.call(.post, "/v1/remediate", ["account": "alice@contoso.com"])
                #expect(remediate.status == 200 && remediate.json["report"]?["status"]?["name"] == "NotCompliant", "\(remediate.json)")
                #expect(remediate.json["report"]?["message"]?.stringValue?.contains("No MAM service is configured") == true, "\(remediate.json)")
                let kinds = try await daemon.call(.get, "/v1/events?since=0&limit=1000").json["events"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
                #expect(kinds.contains("signedIn") && kinds.contains("tokenFailed"), "\(kinds)")
                for kind in ["remediationStarted", "enrollment", "policy", "compliance"] { #expect(!kinds.contains(kind), "\(kinds)") }
                let mamRequests = mock.state.requestLogEntries().filter { $0.path.hasPrefix("/mam/") }
                #expect(mamRequests.isEmpty, "\(mamRequests)")
            }
        }
    }
}
