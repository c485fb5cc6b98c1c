import ChildProcess
import Foundation
import LocalServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM to complianced while a person's browser sign-in waits: the interaction ends as
/// cancelled within seconds (not at its 300 s timeout), the daemon exits 0 and the CLI
/// answers (issue 36, point 10).
@Suite struct StopDuringSignInTests {
    @Test func sigtermEndsAWaitingBrowserSignInAsCancelled() async throws {
        try await DaemonCommandTests.withDaemonProcess { directory, _, daemon in
            let signIn = try await InteractiveSignInTests.startSignIn(directory, ["bob@contoso.com", "--browser", "--no-open"], waitingFor: "Waiting for the browser")
            daemon.child.send(SIGTERM)
            #expect(await daemon.waitForExit(timeout: .seconds(60)), "the daemon waited for the sign-in's interaction timeout")
            #expect(daemon.exitStatus == .exited(0), "\(daemon.stderr)")
            #expect(await signIn.waitForExit(timeout: .seconds(60)), "the CLI hung")
            #expect(signIn.exitStatus != .exited(0), "\(signIn.standardOutput) \(signIn.standardError)")
            await signIn.stop()
        }
    }
}
