import Foundation
import JSON
import Testing
import LocalServers

/// A full run of the real daemon at `--log-level trace`: no access, refresh or id token, no
/// authorization code, password or vault content may appear in any log line or event.
@Suite struct SecretLeakTests {
    static let password = "Passw0rd!"

    @Test func aTraceLoggedRunLeaksNoSecretIntoLogsOrEvents() async throws {
        try await InProcessMockAuth.run { mock in
            mock.state.setRecordsIssuedTokens(true)
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, logLevel: "trace")
                let vaultContent = "vault-secret-" + UUID().uuidString
                let collected: (stderr: String, events: String, accessToken: String)
                do {
                    let accessToken = try await Self.fullScenario(daemon, vaultContent: vaultContent)
                    let events = try await daemon.client.execute(.init(url: "http://localhost/v1/events?since=0&limit=10000")).bodyText
                    collected = (daemon.child.stderr, events, accessToken)
                } catch {
                    await daemon.stop()
                    throw error
                }
                await daemon.stop()

                let issued = mock.state.issuedSecrets()
                #expect(issued.contains { $0.hasPrefix("mock-code.") } && issued.contains { $0.hasPrefix("mock-rt.") })
                #expect(issued.filter { $0.split(separator: ".").count == 3 }.count >= 4, "access and id tokens were recorded")
                let secrets = issued + [collected.accessToken, Self.password, vaultContent]
                let fragments = Set(secrets.flatMap(Self.fragments))
                #expect(fragments.count >= 10)
                let logLines = collected.stderr.split(separator: "\n")
                #expect(logLines.count > 20 && logLines.contains { $0.contains(" trace ") && $0.contains("machine action") }, "the daemon logged its actions at trace level")
                #expect(collected.events.contains("\"compliance\"") && collected.events.contains("\"wipeFinished\""))
                for fragment in fragments {
                    let shown = fragment.prefix(12) + "…"
                    #expect(!collected.stderr.contains(fragment), "a secret (\(shown)) appears in the daemon's log")
                    #expect(!collected.events.contains(fragment), "a secret (\(shown)) appears in the event log")
                }
            }
        }
    }

    /// The parts of a secret worth searching for: the whole, and every dot-separated piece of
    /// 16 characters or more except a JWT's (shared) header.
    static func fragments(_ secret: String) -> [String] {
        let pieces = secret.split(separator: ".").map(String.init)
        let searchable = (pieces.count == 3 ? Array(pieces.dropFirst()) : pieces).filter { $0.count >= 16 }
        return [secret] + searchable
    }

    /// alice 53005 → remediation → Compliant; bob signs in and gets a token; a vault file; the
    /// 8 h check-in; alice deregisters with wipe. Checks file modes while data exists. Returns
    /// the access token the control API handed out.
    static func fullScenario(_ daemon: DaemonProcess, vaultContent: String) async throws -> String {
        let user: JSONValue = ["action": "signIn", "password": .string(password)]
        let alice = try await daemon.call(.post, "/v1/sign-in", ["account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": user])
        #expect(alice.json["status"]?["name"] == "Compliant" && alice.json["report"]?["status"]?["name"] == "Compliant")
        let bob = try await daemon.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": user])
        #expect(bob.json["signedIn"] == true)
        let token = try await daemon.call(.post, "/v1/token", ["account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": user, "silent": false])
        let accessToken = try #require(token.json["token"]?["accessToken"]?.stringValue)
        let put = try await daemon.client.execute(.init(
            method: .put, url: "http://localhost/v1/accounts/alice@contoso.com/data/notes.txt", body: Array(vaultContent.utf8)))
        #expect(put.status == 201)
        try FilePermissions.expectOwnerOnly(daemon.stateDirectory)
        let advanced = try await daemon.call(.post, "/v1/clock/advance", ["seconds": .int(8 * 3600)])
        #expect(advanced.json["fired"]?.arrayValue?.contains { $0["timer"] == "checkIn" } == true)
        let deregistered = try await daemon.call(.post, "/v1/deregister", ["account": "alice@contoso.com", "wipe": true])
        #expect(deregistered.json["wiped"] == true && deregistered.json["enrollmentStatus"]?["code"] == 104)
        return accessToken
    }
}
