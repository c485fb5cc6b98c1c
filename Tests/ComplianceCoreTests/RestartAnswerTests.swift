import Testing
@testable import ComplianceCore

/// The restart hook's exit status as the app's `restartApplication` answer.
@Suite struct RestartAnswerTests {
    @Test func exitStatusZeroIsYesAndEverythingElseIsNoWithTheNotice() {
        #expect(RestartAnswer.hook(exitStatus: 0, outcome: "exited with status 0").appHandlesRestart)
        #expect(RestartAnswer.hook(exitStatus: 0, outcome: "").notice == nil)
        for status: Int32? in [1, 3, nil] {
            let answer = RestartAnswer.hook(exitStatus: status, outcome: "x")
            #expect(!answer.appHandlesRestart && answer.notice == RestartAnswer.sdkRestartNotice)
        }
    }
}
