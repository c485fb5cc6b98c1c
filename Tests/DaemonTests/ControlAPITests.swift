import Foundation
import HTTPClient
import JSON
import Testing
import LocalServers
import ChildProcess

/// The control API of a real `complianced` child: shapes, errors and access.
@Suite struct ControlAPITests {
    static func withDaemon(_ body: @Sendable (DaemonProcess, InProcessMockAuth.Running) async throws -> Void) async throws {
        try await DaemonProcess.with(body)
    }

    static func raw(_ daemon: DaemonProcess, _ method: HTTPClientMethod, _ path: String, body: [UInt8]) async throws -> (Int, JSONValue) {
        let response = try await daemon.client.execute(HTTPClientRequest(method: method, url: "http://localhost" + path, body: body))
        return (response.status, (try? JSONValue.parse(response.body)) ?? .null)
    }

    @Test func badInputGetsA4xxNamingWhatWasWrong() async throws {
        try await Self.withDaemon { daemon, _ in
            let health = try await daemon.call(.get, "/v1/health")
            #expect(health.status == 200 && health.json["status"] == "ok" && health.json["clock"] == "virtual")

            let (badJSON, badJSONBody) = try await Self.raw(daemon, .post, "/v1/sign-in", body: Array("{\"account\": ".utf8))
            #expect(badJSON == 400 && badJSONBody["error"]?["code"] == "bad_request")
            #expect(badJSONBody["error"]?["message"]?.stringValue?.contains("not valid JSON") == true)

            let unknownField = try await daemon.call(.post, "/v1/sign-in", ["account": "alice@contoso.com", "pasword": "x"])
            #expect(unknownField.status == 400 && unknownField.json["error"]?["message"]?.stringValue?.contains("'pasword'") == true)

            let wrongType = try await daemon.call(.post, "/v1/token", ["account": "alice@contoso.com", "scopes": "Chat.Read"])
            #expect(wrongType.status == 400 && wrongType.json["error"]?["message"]?.stringValue?.contains("scopes") == true)

            let invalid = try await daemon.call(.post, "/v1/sign-in", ["account": "alice at contoso"])
            #expect(invalid.status == 400 && invalid.json["error"]?["code"] == "invalid_account")

            let unknown = try await daemon.call(.get, "/v1/accounts/nobody@contoso.com")
            #expect(unknown.status == 404 && unknown.json["error"]?["code"] == "unknown_account")

            let noRoute = try await daemon.call(.get, "/v1/nothing-here")
            #expect(noRoute.status == 404 && noRoute.json["error"]?["code"] == "not_found")

            let (huge, hugeBody) = try await Self.raw(daemon, .post, "/v1/token", body: [UInt8](repeating: 0x20, count: 200_000))
            #expect(huge == 413 && hugeBody["error"]?["code"] == "payload_too_large")

            let backwards = try await daemon.call(.post, "/v1/clock/advance", ["seconds": -5])
            #expect(backwards.status == 400)

            let notAHook = try await daemon.call(.post, "/v1/test/crash-after", ["point": "remediation:nowhere"])
            #expect(notAHook.status == 400 && notAHook.json["error"]?["message"]?.stringValue?.contains("unknown crash point") == true)

            // The daemon is still fine.
            #expect(try await daemon.call(.get, "/v1/health").status == 200)
        }
    }

    @Test func vaultNamesCannotEscapeTheAccountsDirectory() async throws {
        try await Self.withDaemon { daemon, _ in
            let signIn = try await daemon.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
            #expect(signIn.json["signedIn"] == true)
            let (stored, storedBody) = try await Self.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/report.txt", body: Array("hello".utf8))
            #expect(stored == 201 && storedBody["encrypted"] == true && storedBody["size"] == 5)
            for name in ["..", ".manifest", "a%2Fb", "%2E%2E%2Fx"] {
                let (status, body) = try await Self.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/\(name)", body: [1])
                #expect(status == 400 || status == 404, "\(name): \(status) \(body)")
            }
            let list = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data")
            #expect(list.json["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["report.txt"])
            let response = try await daemon.client.execute(HTTPClientRequest(url: "http://localhost/v1/accounts/bob@contoso.com/data/report.txt"))
            #expect(response.status == 200 && response.bodyText == "hello")
            let missing = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data/nothing.txt")
            #expect(missing.status == 404 && missing.json["error"]?["code"] == "not_found")
        }
    }

    @Test func theSocketAndTheStoreAreOwnerOnlyAndTheStateDirectoryIsLocked() async throws {
        try await Self.withDaemon { daemon, mock in
            for (path, mode) in [("control.sock", 0o600), ("state.sqlite", 0o600), ("complianced.lock", 0o600), (".", 0o700), ("vault", 0o700)] {
                let attributes = try FileManager.default.attributesOfItem(atPath: daemon.stateDirectory + "/" + path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "\(path)")
            }
            let second = try ChildServer("complianced", arguments: [
                "--state-dir", daemon.stateDirectory, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist", "--authority", mock.authority,
            ])
            #expect(await second.waitForExit(timeout: .seconds(20)))
            #expect(second.exitStatus == .exited(2))
            #expect(second.stderr.contains("another complianced is using"))
            await second.stop()
            #expect(try await daemon.call(.get, "/v1/health").status == 200)
        }
    }

    @Test func theVirtualClockResumesWhereItStoodAfterAKill() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let first = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let started = try #require(try await first.call(.get, "/v1/clock").json["now"]?.intValue)
                await first.stop()  // SIGKILL before any advance
                try await Task.sleep(for: .milliseconds(50))
                let second = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                #expect(try await second.call(.get, "/v1/clock").json["now"]?.intValue == started)
                _ = try await second.call(.post, "/v1/clock/advance", ["seconds": 3600])
                await second.stop()
                let third = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                #expect(try await third.call(.get, "/v1/clock").json["now"]?.intValue == started + 3_600_000)
                await third.stop()
            }
        }
    }

    @Test func eventsLongPollUntilSomethingHappens() async throws {
        try await Self.withDaemon { daemon, _ in
            let last = try #require(try await daemon.call(.get, "/v1/health").json["lastEventSeq"]?.intValue)
            async let waited = daemon.call(.get, "/v1/events?since=\(last)&wait=20000")
            try await Task.sleep(for: .milliseconds(200))
            _ = try await daemon.call(.post, "/v1/clock/advance", ["seconds": 60])
            let events = try await waited.json["events"]?.arrayValue ?? []
            #expect(events.first?["kind"] == "clockAdvanced")
            #expect(events.first?["seq"]?.intValue == last + 1)
        }
    }

    /// A write the store refuses (a full disk) is the documented `503 storage_unavailable`
    /// (docs/openapi/control-api.yaml), not a 500: nothing was committed, the call may be made
    /// again. It was answered 500 because ControlError mapped only the 4xx codes.
    @Test func aRefusedCommitIsA503StorageUnavailable() async throws {
        try await Self.withDaemon { daemon, _ in
            let signIn = try await daemon.call(.post, "/v1/sign-in", ["account": "alice@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
            #expect(signIn.json["signedIn"] == true, "\(signIn.json)")
            #expect(try await daemon.call(.post, "/v1/test/fail-storage", ["operation": "commit"]).status == 200)
            let advance = try await daemon.call(.post, "/v1/clock/advance", ["seconds": .int(8 * 3600)])  // her check-in is due
            #expect(advance.status == 503, "\(advance.json)")
            #expect(advance.json["error"]?["code"] == "storage_unavailable", "\(advance.json)")
            // The disk has room again: the same call goes through.
            #expect(try await daemon.call(.post, "/v1/clock/advance", ["seconds": .int(8 * 3600)]).status == 200)
        }
    }
}
