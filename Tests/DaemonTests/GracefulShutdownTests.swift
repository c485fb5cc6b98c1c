import ChildProcess
import Foundation
import JSON
import Testing
import LocalServers
import MockAuth

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM stops complianced gracefully: an in-flight remediation finishes (its caller gets
/// its answer), then the daemon exits 0, and a restart finds the finished state.
@Suite struct DaemonGracefulShutdownTests {
    @Test func sigtermLetsAnInFlightRemediationFinishThenExitsZero() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let notify = try NotifySocket()
                let daemon = try await DaemonProcess(
                    stateDirectory: directory, authority: mock.authority,
                    environment: ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { _, new in new })
                // The mock holds the MAM enrollment until released: the remediation is in flight
                // (its enroll request held) when SIGTERM comes, and the stop has begun (STOPPING=1)
                // when the enrollment is answered, whatever the machine's speed. (A 1.5 s delay
                // and SIGTERM after 0.7 s let a slow sign-in meet the signal before its enroll.)
                _ = try await DaemonHarness.http.execute(.json(url: mock.url + "/_admin/faults", body: (["route": "mam.enroll", "action": "hold"] as JSONValue).encoded()))
                async let signIn = daemon.call(.post, "/v1/sign-in", [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ])
                let held = await Self.waitUntil(seconds: 120) { mock.state.held.count == 1 }  // a hang guard
                #expect(held, "the enroll request never reached the mock")
                daemon.child.child.send(SIGTERM)
                #expect(await notify.waitFor("STOPPING=1", timeout: .seconds(120)) != nil)  // a hang guard
                #expect(mock.state.held.releaseAll() == 1, "the enroll request was still held when the stop began")
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

    /// A 10-year advance fires some 11,000 check-ins (minutes of work): SIGTERM ends it after
    /// the timer in progress, the caller hears how far the clock got, and the daemon exits 0.
    @Test func sigtermEndsALongClockAdvance() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let signIn = try await daemon.call(.post, "/v1/sign-in", [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ])
                #expect(signIn.json["status"]?["name"] == "Compliant", "\(signIn.json)")
                let start = try await daemon.call(.get, "/v1/clock").json["now"]?.intValue ?? 0
                async let advance = daemon.call(.post, "/v1/clock/advance", ["seconds": 315_360_000])
                // The advance is under way once the clock moved (a fixed 1.5 s let a slow start
                // of the first advance meet the second one first).
                let moving = await Self.waitUntil(seconds: 120) {  // a hang guard
                    ((try? await daemon.call(.get, "/v1/clock").json["now"]?.intValue) ?? start) > start
                }
                #expect(moving, "the 10-year advance never moved the clock")
                // One advance at a time: a second one would start where the first one is and
                // skip the timers of the first one's interval.
                let second = try await daemon.call(.post, "/v1/clock/advance", ["seconds": 172_800])
                #expect(second.status == 409 && second.json["error"]?["code"] == "conflict", "\(second.json)")
                daemon.child.child.send(SIGTERM)
                let answer = try await advance
                #expect(await daemon.child.waitForExit(timeout: .seconds(60)), "the stop waited for the whole advance")
                #expect(daemon.child.exitStatus == .exited(0), "\(daemon.child.stderr)")
                let from = answer.json["from"]?.intValue ?? 0, now = answer.json["now"]?.intValue ?? 0
                #expect(answer.status == 200 && now < from + 315_360_000_000, "\(answer.json)")
                await daemon.stop()
            }
        }
    }

    @Test func sigtermEndsAnOpenEventLongPollAndARestartFindsTheDirectoryFree() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                // A long poll for events that will never come (the limit is 60 s), then SIGTERM.
                // Under load the poll's request may not have reached the daemon when the signal
                // does (the daemon then closes the connection, rightly): such a try is not the
                // case under test, and the test tries again, up to three times.
                var answered: (status: Int, json: JSONValue)?
                for _ in 1...3 where answered == nil {
                    let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                    async let poll = daemon.call(.get, "/v1/events?since=1000000&wait=60000")
                    try await Task.sleep(for: .seconds(1))
                    daemon.child.child.send(SIGTERM)
                    answered = try? await poll
                    #expect(await daemon.child.waitForExit(timeout: .seconds(30)), "the long poll held the shutdown")
                    #expect(daemon.child.exitStatus == .exited(0), "\(daemon.child.stderr)")
                    await daemon.stop()
                }
                let answer = try #require(answered, "in three tries the poll never reached the daemon before its stop")
                #expect(answer.status == 200 && answer.json["events"] == [], "\(answer.json)")
                // The lock is free at once: the same state directory starts again.
                let again = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                #expect(try await again.call(.get, "/v1/health").status == 200)
                await again.stop()
            }
        }
    }

    /// Polls `condition` every 20 ms until it holds (true) or `seconds` pass (false): a bound
    /// that only stops a hung test.
    static func waitUntil(seconds: Int, _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    /// With the real clock a signed-in account's check-in is hours away: SIGTERM does not wait
    /// for that timer (issue 36, point 10).
    @Test func sigtermDoesNotWaitForAFarTimer() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: ["--clock", "real"])
                let answer = try await daemon.call(.post, "/v1/sign-in", [
                    "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": ["action": "signIn", "password": "Passw0rd!"],
                ])
                #expect(answer.json["status"]?["name"] == "Compliant", "\(answer.json)")
                daemon.child.child.send(SIGTERM)
                #expect(await daemon.child.waitForExit(timeout: .seconds(60)), "the 8 h check-in's timer held the shutdown")
                #expect(daemon.child.exitStatus == .exited(0), "\(daemon.child.stderr)")
                await daemon.stop()
            }
        }
    }
}
