import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// A daemon killed while a hook hangs leaves the hook's process group alive; the next daemon on
/// the state directory ends it before its resumed wipe runs the hook again, so the hook never
/// runs twice at once for the account (issue 36, point 8).
@Suite struct HookGroupTests {
    @Test func theNextStartEndsTheHookAPreviousDaemonLeftRunning() async throws {
        // The hook forks a child into its group, as a shell does, and hangs; run again (by the
        // resumed wipe, while the next daemon starts) it answers at once, so the start that
        // waits for it does not wait 300 s.
        let marker = NSTemporaryDirectory() + "hook-group-ran-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let hook = WipeHook(command: "if [ -e '\(marker)' ]; then exit 0; fi; touch '\(marker)'; sleep 300 & sleep 300", timeout: .seconds(600))
        try await EngineHarness.run(wipeHook: hook) { harness in
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            let wipe = Task { try? await harness.engine.deregister("bob@contoso.com", wipe: true) }
            let hooks = harness.directory + "/hooks"
            var recorded: [String] = []
            for _ in 0..<400 where recorded.isEmpty {
                // A record is written atomically: its temporary file (a dot name) is not one yet.
                recorded = ((try? FileManager.default.contentsOfDirectory(atPath: hooks)) ?? []).filter { !$0.hasPrefix(".") }
                if recorded.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            // The record is written when the hook is spawned, before its shell has run `touch`:
            // wait for the marker too, or the next start's kill can come first, and the resumed
            // wipe's hook then finds no marker and sleeps its 300 s (a CI run took 352 s).
            for _ in 0..<400 where !FileManager.default.fileExists(atPath: marker) { try await Task.sleep(for: .milliseconds(25)) }
            let name = try #require(recorded.first, "the running hook's group is recorded")
            let pid = try #require(Int32(name.split(separator: "-").last ?? ""))
            #expect(kill(-pid, 0) == 0, "the hook's group runs")

            // The daemon that starts after a kill -9 of this one (same state directory).
            let parts = try harness.setup.makeParts()
            let running = try await parts.startRunning()
            var gone = false
            for _ in 0..<200 where !gone {
                gone = kill(-pid, 0) != 0
                if !gone { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(gone, "the leftover hook's whole group was ended at start")
            // Its resumed wipe runs the hook again: one copy only.
            let now = ((try? FileManager.default.contentsOfDirectory(atPath: hooks)) ?? []).filter { !$0.hasPrefix(".") }
            #expect(now.count <= 1 && !now.contains(name), "\(now)")
            #expect(FileManager.default.fileExists(atPath: marker), "the hook ran")
            for left in now { if let other = Int32(left.split(separator: "-").last ?? "") { kill(-other, SIGKILL) } }
            await running.stop()
            wipe.cancel()
        }
    }
}
