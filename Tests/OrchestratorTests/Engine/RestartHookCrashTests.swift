import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// A process that dies while the restart hook runs has restarted the app: the next start
/// records `appRestarted` for the restart the hook was asked about, and the remediation that
/// waited for it finishes (issue 36, point 7).
@Suite struct RestartHookCrashTests {
    @Test func theStartAfterACrashDuringTheHookRecordsTheRestart() async throws {
        // The hook hangs until the test ends it: it must not answer while the test looks
        // (a short sleep did, on a loaded machine).
        let hook = RestartHook(command: "sleep 300", timeout: .seconds(600))
        try await EngineHarness.run(restartHook: hook) { harness in
            let signIn = Task { try? await harness.signIn("alice@contoso.com") }
            var asked = false
            for _ in 0..<200 where !asked {
                asked = try await harness.events().contains { $0.kind == "restartRequired" }
                if !asked { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(asked, "the first policy asked for a restart")
            // The process that starts after the crash: the same state directory, while the
            // first one still waits for its hook (as a SIGKILL leaves it, unanswered). The
            // hook's group record is removed first, so the new start leaves that hook alone
            // (HookGroupTests covers ending it): its answer must not be what records the restart.
            var records: [String] = []
            for _ in 0..<400 where records.isEmpty {
                records = ((try? FileManager.default.contentsOfDirectory(atPath: harness.directory + "/hooks")) ?? []).filter { !$0.hasPrefix(".") }
                if records.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            var groups: [Int32] = []
            for name in records {
                if let pid = Int32(name.split(separator: "-").last ?? "") { groups.append(pid) }
                try FileManager.default.removeItem(atPath: harness.directory + "/hooks/" + name)
            }
            #expect(!groups.isEmpty, "the running hook's group was recorded")
            defer { for pid in groups { kill(-pid, SIGKILL) } }  // the first process's hook ends with the test
            let parts = try harness.setup.makeParts()
            let running = try await parts.startRunning()
            let after = EngineHarness(mock: harness.mock, parts: parts, running: running, directory: harness.directory, setup: harness.setup)
            let kinds = try await after.events().filter { $0.account == "alice@contoso.com" }.map(\.kind)
            let required = try #require(kinds.firstIndex(of: "restartRequired"))
            #expect(kinds[required...].contains("appRestarted"), "\(kinds)")
            #expect(kinds.filter { $0 == "restartApplication" }.isEmpty, "the hook never answered")
            #expect(await after.engine.appView().restartOwed == nil)
            await running.stop()
            signIn.cancel()
        }
    }
}
