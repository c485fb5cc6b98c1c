import ChildProcess
import Foundation
import HTTPClient
import JSON
import Orchestrator
import Testing
import LocalServers

/// One step of a crash scenario, against the daemon's control API or the mock's admin API.
enum ScenarioStep: Sendable {
    case signIn(String)
    case token(String)
    case putData(String, String)
    case deregister(String, wipe: Bool)
    case admin(HTTPClientMethod, String, JSONValue)
    /// In a trigger, moves the virtual clock to `hours` after the time the trigger began (so a
    /// retry after a crash does not move it twice); in a setup, `hours` forward.
    case advance(hours: Int64)

    func run(_ daemon: DaemonProcess, mock: InProcessMockAuth.Running, triggerStart: Int64) async throws {
        switch self {
        case .signIn(let upn):
            _ = try await daemon.call(.post, "/v1/sign-in", [
                "account": .string(upn), "scopes": ["api://contoso-chat/Chat.Read"],
                "user": ["action": "signIn", "password": "Passw0rd!"],
            ])
        case .token(let upn):
            _ = try await daemon.call(.post, "/v1/token", ["account": .string(upn), "scopes": ["api://contoso-chat/Chat.Read"]])
        case .putData(let upn, let text):
            let response = try await daemon.client.execute(HTTPClientRequest(
                method: .put, url: "http://localhost/v1/accounts/\(upn)/data/notes.txt", body: Array(text.utf8)))
            guard response.status == 201 else { throw HarnessError("put data for \(upn): HTTP \(response.status) \(response.bodyText)") }
        case .deregister(let upn, let wipe):
            _ = try await daemon.call(.post, "/v1/deregister", ["account": .string(upn), "wipe": .bool(wipe)])
        case .admin(let method, let path, let body):
            var request = HTTPClientRequest.json(method: method, url: mock.url + "/_admin/" + path, body: body.encoded())
            request.method = method
            let response = try await DaemonHarness.http.execute(request)
            guard (200..<300).contains(response.status) else { throw HarnessError("admin \(path): HTTP \(response.status)") }
        case .advance(let hours) where triggerStart == 0:  // a setup step: relative to now
            _ = try await daemon.call(.post, "/v1/clock/advance", ["seconds": .int(hours * 3600)])
        case .advance(let hours):
            let now = try await daemon.call(.get, "/v1/clock").json["now"]?.intValue ?? triggerStart
            // Even by 0 s: a timer that fell due before a crash fires on the next advance.
            let seconds = max(0, (triggerStart + hours * 3_600_000 - now) / 1000)
            _ = try await daemon.call(.post, "/v1/clock/advance", ["seconds": .int(seconds)])
        }
    }
}

/// Setup steps, then trigger steps that a crash may interrupt; after a restart the trigger
/// steps run again (an app retries what failed), and the end state must equal the
/// uninterrupted run's.
struct CrashScenario: Sendable, CustomTestStringConvertible {
    let name: String
    let setup: [ScenarioStep]
    let trigger: [ScenarioStep]
    /// The crash points the trigger commits (checked against the reference run).
    var points: [String] = []
    /// More options for the daemon (e.g. a wipe hook).
    var daemonArguments: [String] = []

    var testDescription: String { name }

    static let accounts = ["alice@contoso.com", "bob@contoso.com"]

    /// What must not depend on where a crash happened: per account, sign-in, management,
    /// enrollment, last compliance, vault files, wipe state, whether a silent token comes
    /// back, and how many Compliant reports were delivered.
    static func endState(_ daemon: DaemonProcess) async throws -> [String] {
        let events = try await daemon.call(.get, "/v1/events?since=0&limit=10000").json["events"]?.arrayValue ?? []
        var lines: [String] = []
        for upn in accounts {
            let account = try await daemon.call(.get, "/v1/accounts/\(upn)")
            guard account.status == 200 else {
                lines.append("\(upn): unknown")
                continue
            }
            let json = account.json
            let compliant = events.filter {
                $0["kind"] == "compliance" && $0["account"] == .string(upn) && $0["payload"]?["report"]?["status"]?["code"] == 0
            }.count
            let token = try await daemon.call(.post, "/v1/token", [
                "account": .string(upn), "scopes": ["api://contoso-chat/Chat.Read"], "remediate": false,
            ]).json["status"]?["name"]?.stringValue ?? "?"
            lines.append([
                "\(upn):", "signedIn=\(json["signedIn"]?.boolValue ?? false)", "managed=\(json["managed"]?.boolValue ?? false)",
                "enrollment=\(json["enrollment"]?["state"]?.stringValue ?? "?")",
                "compliance=\(json["compliance"]?["name"]?.stringValue ?? "none")", "files=\(json["dataFiles"]?.intValue ?? -1)",
                "wipe=\(json["wipe"]?.stringValue ?? "?")", "silentToken=\(token)", "compliantReports=\(compliant)",
            ].joined(separator: " "))
        }
        return lines
    }

    /// Runs setup and trigger uninterrupted; returns the end state and the points the
    /// trigger committed.
    func reference(mock: InProcessMockAuth.Running) async throws -> (state: [String], points: [String]) {
        mock.state.reset()
        return try await CrashResumeTests.withStateDirectory { directory in
            let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: daemonArguments)
            do {
                for step in setup { try await step.run(daemon, mock: mock, triggerStart: 0) }
                let before = try await Self.commits(daemon)
                let start = try await daemon.call(.get, "/v1/clock").json["now"]?.intValue ?? 0
                for step in trigger { try await step.run(daemon, mock: mock, triggerStart: start) }
                let after = try await Self.commits(daemon)
                let state = try await Self.endState(daemon)
                await daemon.stop()
                let known = Set(Engine.crashPoints)
                return (state, after.filter { known.contains($0.key) && $0.value > (before[$0.key] ?? 0) }.map(\.key).sorted())
            } catch {
                await daemon.stop()
                throw error
            }
        }
    }

    /// How the first daemon of a crash run ended.
    enum Death: Sendable, Hashable, CustomStringConvertible {
        /// Killed itself (SIGKILL) at the armed point, leaving its marker.
        case atArmedPoint
        /// Still running after the trigger and a bounded wait.
        case none
        /// Ended some other way.
        case other(String)

        var description: String {
            switch self {
            case .atArmedPoint: "stopped at the armed point"
            case .none: "did not stop"
            case .other(let how): how
            }
        }
    }

    /// Runs setup, arms `point`, runs the trigger (the daemon must die: the reference run
    /// committed `point`), restarts, runs the trigger again; returns how the first daemon
    /// ended and the end state.
    func crash(at point: String, mock: InProcessMockAuth.Running) async throws -> (death: Death, state: [String]) {
        mock.state.reset()
        return try await CrashResumeTests.withStateDirectory { directory in
            let first = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: daemonArguments)
            var start: Int64 = 0
            do {
                for step in setup { try await step.run(first, mock: mock, triggerStart: 0) }
                start = try await first.call(.get, "/v1/clock").json["now"]?.intValue ?? 0
                _ = try await first.call(.post, "/v1/test/crash-after", ["point": .string(point)])
                for step in trigger { try await step.run(first, mock: mock, triggerStart: start) }
            } catch {
                // The daemon died under a step (or the step failed: the death check says which).
            }
            // The point is committed during the trigger, so the daemon dies; bounded, not timed
            // (a hang guard: 15 s passed on a machine whose cores another job kept busy).
            let death: Death
            if await first.child.waitForExit(timeout: .seconds(120)) {
                let markerPath = directory + "/" + Engine.crashMarkerName
                let marker = (try? String(contentsOfFile: markerPath, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(atPath: markerPath)
                if marker == point + "\n", first.child.exitStatus == .signalled(SIGKILL) {
                    death = .atArmedPoint
                } else {
                    death = .other("\(first.child.exitStatus.map { "\($0)" } ?? "?") with marker \"\(marker)\"")
                }
            } else {
                death = .none
            }
            await first.stop()
            let second = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: daemonArguments)
            do {
                for step in trigger { try await step.run(second, mock: mock, triggerStart: start) }
                let state = try await Self.endState(second)
                await second.stop()
                return (death, state)
            } catch {
                await second.stop()
                throw error
            }
        }
    }

    static func commits(_ daemon: DaemonProcess) async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for (key, value) in try await daemon.call(.get, "/v1/test/commits").json["commits"]?.objectValue ?? JSONObject() {
            counts[key] = value.intValue ?? 0
        }
        return counts
    }
}
