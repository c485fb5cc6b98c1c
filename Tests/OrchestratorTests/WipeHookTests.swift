import Foundation
import Testing
@testable import Orchestrator

@Suite struct WipeHookTests {
    @Test func runsTheCommandWithTheAccountInItsEnvironment() async throws {
        try await withTemporaryDirectory { root in
            let marker = root + "/marker"
            let hook = WipeHook(command: "printf '%s' \"$COMPLIANCE_WIPE_ACCOUNT\" > '\(marker)'", timeout: .seconds(20))
            let outcome = try await hook.run(for: alice, logger: quietLogger)
            #expect(outcome == .exited(0) && outcome.succeeded)
            #expect(try String(contentsOfFile: marker, encoding: .utf8) == "Alice@Contoso.com")
        }
    }

    @Test func reportsAFailingExitStatus() async throws {
        let outcome = try await WipeHook(command: "exit 3", timeout: .seconds(20)).run(for: bob, logger: quietLogger)
        #expect(outcome == .exited(3))
        #expect(!outcome.succeeded)
    }

    @Test func killsACommandThatOutlivesItsTimeout() async throws {
        let clock = ContinuousClock()
        let begin = clock.now
        let outcome = try await WipeHook(command: "sleep 300", timeout: .seconds(1)).run(for: alice, logger: quietLogger)
        let elapsed = clock.now - begin
        #expect(outcome == .timedOut)
        // Not a timing assertion: only that the command's 300 s were not waited out (a loaded
        // machine may take a while to run the 1 s timeout and the kill).
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(120), "bounded by the timeout, not by the command")
    }

    @Test func theKillReachesCommandsTheShellForked() async throws {
        try await withTemporaryDirectory { root in
            let pidFile = root + "/child.pid"
            let hook = WipeHook(command: "sleep 30 & echo $! > '\(pidFile)'; wait", timeout: .seconds(1))
            #expect(try await hook.run(for: alice, logger: quietLogger) == .timedOut)
            let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            // Dead: gone, or a zombie waiting for init to reap it.
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let state = stat.flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
            #expect(stat == nil || state == "Z", "the forked sleep was left running (state \(state ?? "?"))")
        }
    }
}
