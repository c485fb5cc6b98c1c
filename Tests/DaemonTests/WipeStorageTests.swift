import Foundation
import JSON
import Orchestrator
import Testing
import LocalServers

/// What a wipe leaves in the files: no token of the account in the database file or its
/// write-ahead log; and a store that lost its accounts while the vault holds files is refused.
@Suite struct WipeStorageTests {
    /// Every refresh and access token the mock issued to alice is gone from `state.sqlite`
    /// and `state.sqlite-wal` once her wipe is done (secure delete and a truncating checkpoint);
    /// bob's stay readable, which shows the search would find a token if it were there.
    @Test func aWipedAccountsTokensLeaveTheDatabaseAndItsLog() async throws {
        try await DaemonHarness.run { harness in
            harness.mock.state.setRecordsIssuedTokens(true)
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            let aliceSecrets = Set(harness.mock.state.issuedSecrets())
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            let bobSecrets = Set(harness.mock.state.issuedSecrets()).subtracting(aliceSecrets)
            let aliceRefresh = aliceSecrets.filter { $0.hasPrefix("mock-rt.") }
            #expect(!aliceRefresh.isEmpty && bobSecrets.contains { $0.hasPrefix("mock-rt.") })
            let before = Self.storeBytes(harness.directory)
            #expect(aliceRefresh.contains { before.contains($0) }, "alice's refresh token is stored before the wipe")

            let outcome = try await harness.engine.deregister("alice@contoso.com", wipe: true)
            #expect(outcome.wiped)
            let after = Self.storeBytes(harness.directory)
            for secret in aliceSecrets where secret.hasPrefix("mock-rt.") || secret.split(separator: ".").count == 3 {
                #expect(!after.contains(secret), "a token of wiped alice is still readable in the store files (\(secret.prefix(14))…)")
            }
            #expect(bobSecrets.filter { $0.hasPrefix("mock-rt.") }.allSatisfy { after.contains($0) }, "bob's refresh token is still stored")
        }
    }

    /// The database file and its write-ahead log, as text (tokens are ASCII).
    static func storeBytes(_ directory: String) -> String {
        ["state.sqlite", "state.sqlite-wal"].map { name -> String in
            let data = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }.joined(separator: "\n")
    }

    /// A state directory whose store was replaced by an empty one while the vault still holds
    /// an account's files: the daemon refuses to start and says why.
    @Test func anEmptyStoreBesideAVaultWithFilesIsRefused() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                _ = try await daemon.call(.post, "/v1/sign-in", [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ])
                let put = try await daemon.client.execute(.init(method: .put, url: "http://localhost/v1/accounts/alice@contoso.com/data/a.txt", body: [1]))
                #expect(put.status == 201)
                await daemon.stop()
                for name in ["state.sqlite", "state.sqlite-wal", "state.sqlite-shm"] { try? FileManager.default.removeItem(atPath: directory + "/" + name) }
                let started = try await StartupCheckTests.start(directory)
                #expect(started.status == 2, "\(started.stderr)")
                #expect(started.stderr.contains("the store holds no accounts, but the vault holds the files of 1 account(s)"), "\(started.stderr)")
            }
        }
    }
}
