import AppProfile
import ComplianceCore
import Daemon
import HTTPClient
import Logging
import Orchestrator
import LocalServers

/// One virtual device: an engine on its own state directory (store, vault), signing in its
/// own user. Devices share the process's HTTP client and the mock.
struct LoadDevice: Sendable {
    let index: Int
    let upn: String
    let parts: DaemonParts
    let running: RunningEngine

    static let scopes = ["api://contoso-chat/Chat.Read"]
    static let appProfile = InProcessMockAuth.packageRoot.appendingPathComponent("mocks/fixtures/apps/chatr-Info.plist").path
    static let quiet = Logger(label: "compliance-load", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Opens the device's store and starts its engine (virtual clock: no timers fire on their own).
    static func start(index: Int, upn: String, directory: String, mock: LoadMock, http: HTTPClient) async throws -> LoadDevice {
        let configuration = try DaemonConfiguration(
            stateDirectory: directory, app: try AppSettings.load(infoPlist: appProfile), authority: mock.authority, mamURL: mock.mamURL,
            clock: .virtual, httpTimeout: .seconds(60))
        let parts = try DaemonParts(configuration, logger: quiet, http: http)
        return LoadDevice(index: index, upn: upn, parts: parts, running: try await parts.startRunning())
    }

    /// How the device's flow ended.
    struct FlowOutcome: Sendable {
        let duration: Duration
        let status: ComplianceStatus?
        let signedIn: Bool
        let remediated: Bool
        let error: String?
    }

    /// Signs the user in interactively with `password`: 53005, remediation, retried token.
    func runFlow(password: String) async -> FlowOutcome {
        let start = ContinuousClock.now
        do {
            let outcome = try await parts.engine.signIn(
                upn, scopes: Self.scopes, silent: false, user: .signIn(password: password))
            return FlowOutcome(
                duration: ContinuousClock.now - start, status: outcome.token.status, signedIn: outcome.signedIn,
                remediated: outcome.token.remediated, error: nil)
        } catch {
            return FlowOutcome(duration: ContinuousClock.now - start, status: nil, signedIn: false, remediated: false, error: "\(error)")
        }
    }

    /// What the device's store says at the end.
    struct State: Sendable, CustomStringConvertible {
        let signedIn: Bool
        let managed: Bool
        let enrollment: EnrollmentStateMachine.Phase?
        let compliance: ComplianceStatus?
        let problem: String?

        /// Signed in, managed, enrolled, Compliant, store sound.
        var isExpected: Bool { signedIn && managed && enrollment == .enrolled && compliance == .compliant && problem == nil }

        /// `signed in, managed, enrolled, Compliant` or what differs (`not signed in, …`).
        var description: String {
            [
                signedIn ? "signed in" : "not signed in", managed ? "managed" : "not managed",
                enrollment.map { "enrollment \($0)" } ?? "no enrollment", compliance.map { "\($0)" } ?? "no compliance status",
            ].joined(separator: ", ") + (problem.map { "; store: \($0)" } ?? "")
        }
    }

    func finalState() async -> State {
        do {
            let summary = try await parts.engine.account(upn)
            let problems = try parts.store.integrityProblems()
            return State(
                signedIn: summary.signedIn, managed: summary.managed, enrollment: summary.enrollmentState, compliance: summary.compliance,
                problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
        } catch {
            return State(signedIn: false, managed: false, enrollment: nil, compliance: nil, problem: "\(error)")
        }
    }

    func stop() async { await running.stop() }
}
