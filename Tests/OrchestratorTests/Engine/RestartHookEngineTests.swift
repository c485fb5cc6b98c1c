import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// The app's restart hook plays `restartApplication`: run when a first policy restarts the app
/// (its save-state point), with the account and the directories; exit 0 is YES (the app
/// restarts itself and reports it), anything else NO (the daemon restarts the session after
/// the notice).
@Suite struct RestartHookEngineTests {
    /// YES: the sign-in that brought the first policy is answered `restart_pending`; tokens are
    /// refused until the app reports; the debt survives a restart of the engine; the report
    /// answers with the remediation's Compliant report.
    @Test func aHookAnsweringYesHoldsTheAppUntilItReportsItsRestart() async throws {
        let marker = NSTemporaryDirectory() + "restart-hook-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let hook = RestartHook(
            command: "printf '%s\\n%s\\n%s' \"$COMPLIANCE_RESTART_ACCOUNT\" \"$COMPLIANCE_RESTART_DIRECTORY\" \"$COMPLIANCE_STATE_DIRECTORY\" > '\(marker)'",
            timeout: .seconds(10))
        try await EngineHarness.run(restartHook: hook) { harness in
            do {
                _ = try await harness.signIn("alice@contoso.com")
                Issue.record("the sign-in that brought the first policy was answered, though the app restarts itself")
            } catch let error as EngineError {
                #expect(error.code == .restartPending)
                #expect(error.message.contains("restartApplication answered YES"))
            }
            let told = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(told == [
                "alice@contoso.com", harness.parts.engine.vaultDirectory(for: try AccountID("alice@contoso.com")), harness.directory,
            ])
            let answered = try #require(try await harness.events().first { $0.kind == "restartApplication" })
            #expect(answered.payload["appHandlesRestart"] == true && answered.payload["outcome"] == "exited with status 0")
            #expect(answered.payload["notice"] == nil)
            #expect(await harness.engine.appView().restartOwed?.key == "alice@contoso.com")

            let again = try await harness.restarted()
            #expect(await again.engine.appView().restartOwed?.key == "alice@contoso.com", "a daemon restart does not pay the app's restart")
            await #expect(throws: EngineError.self) {
                try await again.engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
            }
            let report = try #require(try await again.engine.appReportedRestart())
            #expect(report.status == .compliant && report.account.key == "alice@contoso.com")
            let token = try await again.engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
            #expect(token.status == .compliant && token.tokens != nil)
            let kinds = try await again.events().map(\.kind)
            #expect(kinds.filter { $0 == "restartApplication" }.count == 1 && kinds.filter { $0 == "appRestarted" }.count == 1)
            await again.running.stop()
        }
    }

    /// NO: the daemon records the notice, restarts the session at once, and the sign-in goes on.
    @Test func aHookAnsweringNoLetsTheDaemonRestartAfterTheNotice() async throws {
        try await EngineHarness.run(restartHook: RestartHook(command: "exit 1", timeout: .seconds(10))) { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            let events = try await harness.events()
            let answered = try #require(events.first { $0.kind == "restartApplication" })
            #expect(answered.payload["appHandlesRestart"] == false && answered.payload["outcome"] == "exited with status 1")
            #expect(answered.payload["notice"]?.stringValue == RestartAnswer.sdkRestartNotice)
            let kinds = events.map(\.kind)
            #expect(kinds.firstIndex(of: "restartApplication")! < kinds.firstIndex(of: "appRestarted")!)
            await #expect(throws: EngineError.self) { try await harness.engine.appReportedRestart() }
        }
    }

    /// A hook that outlives its time limit is killed, and that is NO.
    @Test func aHookThatTimesOutAnswersNo() async {
        let answer = await RestartHook(command: "sleep 30", timeout: .milliseconds(200))
            .ask(for: try! AccountID("alice@contoso.com"), directory: "/nonexistent", stateDirectory: "/nonexistent", logger: quietLogger)
        #expect(answer == RestartAnswer(appHandlesRestart: false, outcome: "timed out and was killed"))
    }
}
