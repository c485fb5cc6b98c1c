import ComplianceCore
import Orchestrator
import Testing

/// A wipe the disk stopped (its vault removal failed) is journaled and waits for the next start
/// or deregistration, with the account no longer the managed one while its files and key are
/// still on disk. Until it runs again, nothing written before it is readable: `data get` and
/// `unprotect` refuse (409 `conflict`) as `protect` and `data put` do, not only while the
/// account was managed.
@Suite struct StoppedWipeReadTests {
    @Test func aWipeTheDiskStoppedLeavesNothingReadable() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            _ = try await harness.engine.putData("alice@contoso.com", name: "plan.txt", bytes: Array("alice's plan".utf8))
            let buffer = try await harness.engine.protect(Array("alice's buffer".utf8), identity: "alice@contoso.com")
            #expect(buffer.mode == .encrypted)

            await harness.engine.failStorage(.vault, count: 1)
            do {
                _ = try await harness.engine.deregister("alice@contoso.com", wipe: true)
                Issue.record("the wipe finished although its vault removal failed")
            } catch let error as EngineError {
                #expect(error.code == .storageUnavailable, "\(error)")
            }

            do {
                let bytes = try await harness.engine.getData("alice@contoso.com", name: "plan.txt")
                Issue.record("data get served \(bytes.count) bytes of alice's file while her wipe waits to run again")
            } catch let error as EngineError {
                #expect(error.code == .conflict, "\(error)")
            }
            do {
                let plain = try await harness.engine.unprotect(buffer.bytes)
                Issue.record("unprotect served \(plain.bytes.count) bytes of alice's buffer while her wipe waits to run again")
            } catch let error as EngineError {
                #expect(error.code == .conflict, "\(error)")
            }

            // Asked again, the wipe finishes: the file is gone and the buffer's key too.
            #expect(try await harness.engine.deregister("alice@contoso.com", wipe: true).wiped)
            await #expect(throws: EngineError.self) { _ = try await harness.engine.getData("alice@contoso.com", name: "plan.txt") }
            do {
                _ = try await harness.engine.unprotect(buffer.bytes)
                Issue.record("alice's buffer opened after her wipe")
            } catch let error as EngineError {
                #expect(error.code == .keyGone, "\(error)")
            }
        }
    }
}
