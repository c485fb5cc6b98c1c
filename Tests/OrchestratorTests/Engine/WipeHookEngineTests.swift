import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// The app's wipe hook plays `wipeDataForAccount`: it runs before the daemon touches the
/// account's files, gets the account and its directory, and its exit status is the answer.
@Suite struct WipeHookEngineTests {
    static func files(_ harness: EngineHarness, _ upn: String) async throws -> [String] {
        try await harness.engine.listData(upn).map(\.name)
    }

    static func prepare(_ harness: EngineHarness) async throws {
        #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
        #expect(try await harness.signIn("bob@contoso.com").signedIn)
        _ = try await harness.engine.putData("alice@contoso.com", name: "plan.txt", bytes: Array("alice".utf8))
        _ = try await harness.engine.putData("bob@contoso.com", name: "notes.txt", bytes: Array("bob".utf8))
    }

    /// NO (exit 1): the daemon removes the account's files, after the hook.
    @Test func aHookAnsweringNoLeavesTheFilesToTheDaemon() async throws {
        let hook = WipeHook(command: "exit 1", timeout: .seconds(10))
        try await EngineHarness.run(wipeHook: hook) { harness in
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
    /// daemon still removes what is left of the account's vault, and the event says the app
    /// answered for its data.
    @Test func aHookAnsweringYesHasRemovedTheDataItself() async throws {
        let marker = NSTemporaryDirectory() + "hook-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let hook = WipeHook(
            command: "printf '%s\\n%s' \"$COMPLIANCE_WIPE_ACCOUNT\" \"$COMPLIANCE_WIPE_DIRECTORY\" > '\(marker)'; rm -rf \"$COMPLIANCE_WIPE_DIRECTORY\"",
            timeout: .seconds(10))
        try await EngineHarness.run(wipeHook: hook) { harness in
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

    /// YES (exit 0) from an app that removed nothing: the daemon still destroys the account's
    /// key and files. A buffer protected before the wipe no longer decrypts, no route serves a
    /// file written before it, and a new sign-in finds none of them (issue 36, point 1).
    @Test func aHookAnsweringYesStillDestroysTheKeyAndFiles() async throws {
        let hook = WipeHook(command: "exit 0", timeout: .seconds(10))
        try await EngineHarness.run(wipeHook: hook) { harness in
            try await Self.prepare(harness)
            let buffer = try await harness.engine.protect(Array("secret".utf8), identity: "alice@contoso.com")
            #expect(buffer.mode == .encrypted)
            #expect(try await harness.engine.deregister("alice@contoso.com", wipe: true).wiped)
            await #expect(throws: EngineError.self) { _ = try await harness.engine.unprotect(buffer.bytes) }
            #expect(try await Self.files(harness, "alice@contoso.com").isEmpty)
            #expect(FileManager.default.fileExists(atPath: harness.engine.vaultDirectory(for: try AccountID("alice@contoso.com"))) == false)
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            #expect(try await Self.files(harness, "alice@contoso.com").isEmpty)
            await #expect(throws: EngineError.self) { _ = try await harness.engine.getData("alice@contoso.com", name: "plan.txt") }
            await #expect(throws: EngineError.self) { _ = try await harness.engine.unprotect(buffer.bytes) }
            #expect(try await Self.files(harness, "bob@contoso.com") == ["notes.txt"])
        }
    }

    /// The hook is given a directory that exists, also for an account that stored nothing.
    @Test func theHooksDirectoryExistsForAnAccountWithoutFiles() async throws {
        let hook = WipeHook(command: "test -d \"$COMPLIANCE_WIPE_DIRECTORY\"", timeout: .seconds(10))
        try await EngineHarness.run(wipeHook: hook) { harness in
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            #expect(try await Self.files(harness, "bob@contoso.com").isEmpty)
            #expect(try await harness.engine.deregister("bob@contoso.com", wipe: true).wiped)
            let hookEvent = try #require(try await harness.events().first { $0.kind == "wipeHook" })
            #expect(hookEvent.payload["outcome"] == "exited with status 0", "\(hookEvent.payload)")
            #expect(!FileManager.default.fileExists(atPath: harness.engine.vaultDirectory(for: try AccountID("bob@contoso.com"))))
        }
    }
}
