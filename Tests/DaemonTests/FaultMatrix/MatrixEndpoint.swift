import ComplianceCore
import Daemon
import Orchestrator

/// A row of the fault matrix: an endpoint the client calls, and the app step that calls it.
enum MatrixEndpoint: CaseIterable, Sendable {
    /// bob signs in (discovery, sign-in page, token).
    case discovery, token, keys
    /// alice signs in: 53005, then the remediation enrolls.
    case enrollRemediation
    /// bob signs in, then registers: the enrollment machine enrolls (retried every 24 h).
    case enrollRegistration
    /// bob is enrolled; the 8 h check-in fires.
    case checkIn
    /// bob is enrolled and deregisters (without wipe).
    case unenroll
    /// alice's remediation reports compliance.
    case reportCompliance

    var title: String {
        switch self {
        case .discovery: "openid-configuration"
        case .token: "token"
        case .keys: "keys (JWKS)"
        case .enrollRemediation: "enroll (remediation)"
        case .enrollRegistration: "enroll (registration)"
        case .checkIn: "checkin"
        case .unenroll: "unenroll"
        case .reportCompliance: "report-compliance"
        }
    }

    /// The mock's route name (fault rules, request log).
    var route: String {
        switch self {
        case .discovery: "openid-configuration"
        case .token: "token"
        case .keys: "keys"
        case .enrollRemediation, .enrollRegistration: "mam.enroll"
        case .checkIn: "mam.checkin"
        case .unenroll: "mam.unenroll"
        case .reportCompliance: "mam.report-compliance"
        }
    }

    /// The service whose host serves the endpoint (for the untrusted-TLS column).
    var service: MatrixLab.Secure {
        switch self {
        case .discovery, .token, .keys: .issuer
        default: .mam
        }
    }

    /// The account the step runs for.
    var account: String {
        switch self {
        case .enrollRemediation, .reportCompliance: "alice@contoso.com"
        default: "bob@contoso.com"
        }
    }

    /// A repeat right after a `Retry-After` answer reaches the same service (so it must be held).
    var repeatsAtOnce: Bool {
        switch self {
        case .discovery, .token, .enrollRemediation, .reportCompliance: true
        case .keys, .enrollRegistration, .checkIn, .unenroll: false
        }
    }

    /// Brings a fresh device to the step: bob enrolled for check-in and unenroll.
    func prepare(_ device: MatrixDevice) async throws {
        guard self == .checkIn || self == .unenroll else { return }
        let outcome = try await device.engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password)
        let summary = try await device.engine.account(account)
        guard outcome.signedIn, summary.enrollmentState == .enrolled else {
            throw HarnessError("\(title): bob did not enroll before the fault (\(summary.enrollmentState))")
        }
    }

    /// Runs the step and observes what the app got and what the engine scheduled.
    func trigger(_ device: MatrixDevice) async throws -> MatrixObservation {
        let engine = device.engine
        var observation = MatrixObservation()
        switch self {
        case .discovery, .token, .keys:
            observation.status = try await engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password).token.status
        case .enrollRemediation, .reportCompliance:
            let outcome = try await engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password)
            observation.status = outcome.token.status
            observation.enrollmentStatus = outcome.token.report?.enrollmentStatus
            observation.wiped = try await device.store.events(since: 0, limit: 10_000).contains { $0.kind == "wipeStarted" && $0.account?.key == account }
        case .enrollRegistration:
            observation.status = try await engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password).token.status
            try await observeEnrollment(device, into: &observation)
        case .checkIn:
            _ = try await engine.advanceClock(seconds: 8 * 3600)
            try await observeEnrollment(device, into: &observation)
        case .unenroll:
            observation.enrollmentStatus = try await engine.deregister(account, wipe: false).enrollmentStatus
            try await observeEnrollment(device, into: &observation)
        }
        return observation
    }

    /// The account's last enrollment status and what comes next: `retry 24h`, `check-in 8h`, `removed`.
    private func observeEnrollment(_ device: MatrixDevice, into observation: inout MatrixObservation) async throws {
        let summary = try await device.engine.account(account)
        if self != .unenroll { observation.enrollmentStatus = summary.lastEnrollmentStatus }
        let hours = summary.nextDueAt.map { ($0 - device.engine.clock.milliseconds) / 3_600_000 }
        switch summary.enrollmentState {
        case .awaitingRetry: observation.schedule = "retry \(hours.map(String.init) ?? "?")h"
        case .enrolled: observation.schedule = "check-in \(hours.map(String.init) ?? "?")h"
        default: observation.schedule = summary.enrollmentState.rawValue
        }
    }

    /// After the fault is gone: the same step succeeds. Returns what went wrong, if anything.
    func clean(_ device: MatrixDevice) async throws -> String? {
        let engine = device.engine
        switch self {
        case .discovery, .token, .keys, .enrollRemediation, .reportCompliance:
            let outcome = try await engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password)
            return outcome.signedIn && outcome.token.status == .compliant ? nil : "sign-in: \(outcome.token.status)"
        case .enrollRegistration:
            if try await engine.account(account).enrollmentState != .enrolled { _ = try await engine.advanceClock(seconds: 24 * 3600) }
            let state = try await engine.account(account).enrollmentState
            return state == .enrolled ? nil : "enrollment after the 24 h retry: \(state.rawValue)"
        case .checkIn:
            _ = try await engine.advanceClock(seconds: 8 * 3600)
            let summary = try await engine.account(account)
            let fine = summary.enrollmentState == .enrolled && [.newPoliciesReceived, .policiesHaveNotChanged].contains(summary.lastEnrollmentStatus)
            return fine ? nil : "next check-in: \(summary.enrollmentState) \(String(describing: summary.lastEnrollmentStatus))"
        case .unenroll:
            _ = try await engine.signIn(account, scopes: DaemonHarness.chatRead, silent: false, user: DaemonHarness.password)
            let status = try await engine.deregister(account, wipe: false).enrollmentStatus
            return status == .unenrollmentSuccess ? nil : "deregister again: \(String(describing: status))"
        }
    }
}
