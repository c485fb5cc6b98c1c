import Foundation
import JSON
import Testing
import TestSupport

/// `kill -9` at every persisted step alice's first sign-in passes, then a restart: the daemon
/// resumes before it serves, and the end state equals an uninterrupted run's.
@Suite(.serialized) struct CrashResumeTests {
    static let signIn: JSONValue = [
        "account": "alice@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"],
        "user": ["action": "signIn", "password": "Passw0rd!"],
    ]

    /// What must hold once alice's sign-in completed, crash or not.
    static func endState(_ daemon: DaemonProcess) async throws -> [String] {
        let account = try await daemon.call(.get, "/v1/accounts/alice@contoso.com").json
        let events = try await daemon.call(.get, "/v1/events?since=0").json["events"]?.arrayValue ?? []
        // A remediation resumed without its user may deliver InteractionRequired first; what must
        // never repeat is the delivered Compliant.
        let compliance = events.filter {
            $0["kind"] == "compliance" && $0["account"] == "alice@contoso.com" && $0["payload"]?["report"]?["status"]?["code"] == 0
        }
        return [
            "signedIn=\(account["signedIn"]?.boolValue ?? false)",
            "managed=\(account["managed"]?.boolValue ?? false)",
            "enrollment=\(account["enrollment"]?["state"]?.stringValue ?? "?")",
            "compliance=\(account["compliance"]?["name"]?.stringValue ?? "none")",
            "complianceEvents=\(compliance.count)",
        ]
    }

    @Test func everyCrashPointOfARemediationConvergesToTheUninterruptedEndState() async throws {
        try await InProcessMockAuth.run { mock in
            // The uninterrupted run.
            let reference = try await Self.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let answer = try await daemon.call(.post, "/v1/sign-in", Self.signIn)
                #expect(answer.json["status"]?["name"] == "Compliant")
                let state = try await Self.endState(daemon)
                await daemon.stop()
                return state
            }
            #expect(reference == ["signedIn=true", "managed=true", "enrollment=enrolled", "compliance=Compliant", "complianceEvents=1"])

            let points = try await Self.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let points = try await daemon.call(.get, "/v1/test/crash-points").json["points"]?.arrayValue?.compactMap(\.stringValue) ?? []
                await daemon.stop()
                return points
            }
            var crashed: [String] = []
            for point in points {
                await mock.state.reset()
                let outcome = try await Self.withStateDirectory { directory -> (Bool, [String]) in
                    let first = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                    _ = try await first.call(.post, "/v1/test/crash-after", ["point": .string(point)])
                    let answered = (try? await first.call(.post, "/v1/sign-in", Self.signIn)) != nil
                    let died = await first.child.waitForExit(timeout: answered ? .milliseconds(100) : .seconds(5))
                    await first.stop()
                    let second = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                    // The app signs in again after the crash, as it would after any failure.
                    let answer = try await second.call(.post, "/v1/sign-in", Self.signIn)
                    #expect(answer.json["status"]?["name"] == "Compliant", "after a crash at \(point): \(answer.json)")
                    let state = try await Self.endState(second)
                    await second.stop()
                    return (died, state)
                }
                if outcome.0 { crashed.append(point) }
                #expect(outcome.1 == reference, "after a crash at \(point)")
            }
            // Every step alice's first sign-in commits was a crash point.
            #expect(Set(crashed).isSuperset(of: [
                "remediation:acquiringMAMToken", "remediation:awaitingPolicy", "remediation:applyingPolicy",
                "remediation:awaitingRestart", "remediation:delivering", "enrollment:enrolled", "allowedAccounts:tracking",
            ]), "crashed at \(crashed)")
            print("crash points exercised by alice's sign-in: \(crashed.count) of \(points.count): \(crashed.joined(separator: ", "))")
        }
    }

    static func withStateDirectory<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }
}
