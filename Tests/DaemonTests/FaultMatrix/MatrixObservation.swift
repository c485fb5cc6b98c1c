import ComplianceCore
import Orchestrator

/// What one cell of the fault matrix showed, rendered as the table's cell text.
struct MatrixObservation: Sendable, Equatable {
    /// The status the app got (sign-in or remediation report); nil for timer-driven steps.
    var status: ComplianceStatus?
    /// The enrollment status of the MAM step (IntuneMAMEnrollmentStatus code).
    var enrollmentStatus: EnrollmentStatus?
    /// What the engine scheduled: `retry 24h`, `check-in 8h`, `removed`.
    var schedule: String?
    /// A repeat right after the fault (faults cleared) failed without reaching the server.
    var held = false
    /// The account's managed data was wiped (a failed remediation of a managed account).
    var wiped = false
    /// Why no request reached the endpoint: `not requested`, `TLS refused`.
    var unreached: String?

    var text: String {
        let head = [status.map(EngineJSON.name(of:)), enrollmentStatus.map { String($0.rawValue) }].compactMap { $0 }.joined(separator: " ")
        let tail = [schedule, held ? "held" : nil, wiped ? "wiped" : nil, unreached].compactMap { $0 }
        return ([head] + tail).filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
