import ComplianceCore
import Orchestrator
import Testing

/// The allowed-accounts check in the engine against identities made to pass for alice: case
/// variants are alice; everything else is refused (invalid, or not allowed) and gets no
/// token; alice's and bob's data and state stay as they were.
@Suite struct HostileIdentityEngineTests {
    static let lookAlikes = [
        "\u{0430}lice@contoso.com",  // Cyrillic а among Latin letters: mixed scripts, refused
        "alice@cont\u{043E}so.com",  // Cyrillic о in the domain
        "\u{0430}\u{043B}\u{0438}\u{0441}\u{0430}@contoso.com",  // алиса: a valid name, another account, not allowed
        "alice\u{FF20}contoso.com",  // fullwidth ＠
        "\u{FF41}lice@contoso.com",  // fullwidth ａ
        "alice\u{0}@contoso.com",  // NUL
        "alice@contoso.com\u{0}",
        "alice@contoso.com.",  // trailing dot
        "ali\u{200B}ce@contoso.com",  // zero-width space
        " alice@contoso.com",
        "alice@contoso.com\n",
        "dave@contoso.com",  // a real user the policy does not allow
    ]

    @Test func lookAlikesAreNeverAliceNorAllowedInHerPlace() async throws {
        try await EngineHarness.run { harness in
            let engine = harness.engine
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)  // the policy (allowed accounts) is known now
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            _ = try await engine.putData("alice@contoso.com", name: "alice.txt", bytes: Array("alice's".utf8))
            _ = try await engine.putData("bob@contoso.com", name: "bob.txt", bytes: Array("bob's".utf8))
            let aliceBefore = try await engine.account("alice@contoso.com")

            for upn in Self.lookAlikes {
                do {
                    let outcome = try await engine.signIn(upn, scopes: EngineHarness.chatRead, silent: false, user: EngineHarness.password)
                    Issue.record("\(String(reflecting: upn)) signed in: \(outcome.signedIn) \(outcome.token.status)")
                } catch let error as EngineError {
                    #expect(error.code == .invalidAccount || error.code == .signInRefused, "\(String(reflecting: upn)): \(error)")
                }
                if let token = try? await engine.acquireToken(upn, scopes: EngineHarness.chatRead, silent: false, remediate: true, user: EngineHarness.password) {
                    #expect(token.tokens == nil && token.account.key != "alice@contoso.com", "\(String(reflecting: upn)) got a token")
                }
                await #expect(throws: EngineError.self, "\(String(reflecting: upn)) reached alice's data") {
                    _ = try await engine.getData(upn, name: "alice.txt")
                }
            }
            for variant in ["ALICE@contoso.com", "Alice@Contoso.COM"] {
                #expect(try await engine.getData(variant, name: "alice.txt") == Array("alice's".utf8))
            }
            let aliceAfter = try await engine.account("alice@contoso.com")
            #expect(aliceAfter.signedIn && aliceAfter.managed && aliceAfter.compliance == aliceBefore.compliance && aliceAfter.dataFiles == 1)
            #expect(try await engine.getData("bob@contoso.com", name: "bob.txt") == Array("bob's".utf8))
            let keys = try await engine.accounts().map(\.account.key)
            #expect(keys.filter { $0 == "alice@contoso.com" }.count == 1)
            for summary in try await engine.accounts() where !["alice@contoso.com", "bob@contoso.com"].contains(summary.account.key) {
                #expect(!summary.signedIn && summary.dataFiles == 0, "\(summary.account.upn) holds a session or data")
            }
        }
    }
}
