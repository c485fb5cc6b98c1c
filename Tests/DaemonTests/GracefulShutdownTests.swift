import ChildProcess
import Foundation
import JSON
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM stops complianced gracefully: an in-flight remediation finishes (its caller gets
/// its answer), then the daemon exits 0, and a restart finds the finished state.
@Suite struct DaemonGracefulShutdownTests {
    @Test func sigtermLetsAnInFlightRemediationFinishThenExitsZero() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                // The MAM enrollment answers after 1.5 s: the remediation is in flight when SIGTERM comes.
                _ = try await DaemonHarness.http.execute(.json(url: mock.url + "/_admin/faults", body: (["route": "mam.enroll", "delayMs": 1500] as JSONValue).encoded()))
                async let signIn = daemon.call(.post, "/v1/sign-in", [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ])
                try await Task.sleep(for: .milliseconds(700))
                daemon.child.child.send(SIGTERM)
                let answer = try await signIn
                #expect(answer.status == 200 && answer.json["status"]?["name"] == "Compliant", "\(answer.json)")
                #expect(await daemon.child.waitForExit(timeout: .seconds(30)))
                #expect(daemon.child.exitStatus == .exited(0), "\(daemon.child.stderr)")
                await daemon.stop()

                let again = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let alice = try await again.call(.get, "/v1/accounts/alice@contoso.com").json
                #expect(alice["signedIn"] == true && alice["compliance"]?["name"] == "Compliant", "\(alice)")
                await again.stop()
            }
        }
    }
}
