import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// The app's wipe hook plays `wipeDataForAccount`: it runs before the daemon touches the
/// account's files, gets the account and its directory, and its exit status is the answer.
@Suite struct WipeHookEngineTests {
    static func files(_ harness: DaemonHarness, _ upn: String) async throws -> [String] {
        try await harness.engine.listData(upn).map(\.name)
    }

    static func prepare(_ harness: DaemonHarness) async throws {
        #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
        #expect(try await harness.signIn("bob@contoso.com").signedIn)
        _ = try await harness.engine.putData("alice@contoso.com", name: "plan.txt", bytes: Array("alice".utf8))
        _ = try await harness.engine.putData("bob@contoso.com", name: "notes.txt", bytes: Array("bob".utf8))
    }

    /// NO (exit 1): the daemon removes the account's files, after the hook.
    @Test func aHookAnsweringNoLeavesTheFilesToTheDaemon() async throws {
        let hook = WipeHook(command: "exit 1", timeout: .seconds(10))
        try await DaemonHarness.run(wipeHook: hook) { harness in
            try await Self.prepare(harness)
            #expect(try await harness.engine.deregister("alice@contoso.com", wipe: true).wiped)
            #expect(try await Self.files(harness, "alice@contoso.com").isEmpty)
            #expect(try await Self.files(harness, "bob@contoso.com") == ["notes.txt"])
            let kinds = try await harness.events().filter { $0.account == "alice@contoso.com" }.map(\.kind)
            let hookAt = try #require(kinds.firstIndex(of: "wipeHook"))
            #expect(kinds.firstIndex(of: "wipeStarted")! < hookAt && hookAt < kinds.firstIndex(of: "wipeFinished")!)
        }
    }

    /// YES (exit 0): the app removed the data itself (here: the directory it is given); the
    /// daemon removes nothing more, and the event says the app answered for its data.
    @Test func aHookAnsweringYesHasRemovedTheDataItself() async throws {
        let marker = NSTemporaryDirectory() + "hook-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let hook = WipeHook(
            command: "printf '%s\\n%s' \"$COMPLIANCE_WIPE_ACCOUNT\" \"$COMPLIANCE_WIPE_DIRECTORY\" > '\(marker)'; rm -rf \"$COMPLIANCE_WIPE_DIRECTORY\"",
            timeout: .seconds(10))
        try await DaemonHarness.run(wipeHook: hook) { harness in
            try await Self.prepare(harness)
            #expect(try await harness.engine.deregister("alice@contoso.com", wipe: true).wiped)
            let told = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(told.first == "alice@contoso.com")
            #expect(told.last == harness.parts.engine.vaultDirectory(for: try AccountID("alice@contoso.com")))
            #expect(try await Self.files(harness, "alice@contoso.com").isEmpty)
            #expect(try await Self.files(harness, "bob@contoso.com") == ["notes.txt"])
            let hookEvent = try #require(try await harness.events().first { $0.kind == "wipeHook" })
            #expect(hookEvent.payload["appRemovedData"] == true && hookEvent.payload["outcome"] == "exited with status 0")
        }
    }
}
