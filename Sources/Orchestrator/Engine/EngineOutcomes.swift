import ComplianceCore

/// Who plays the browser when a request needs interaction (flows script it).
public enum InteractiveUser: Sendable, Hashable, CustomStringConvertible {
    /// Signs in as the request's account with this password.
    case signIn(password: String)
    /// Presses cancel on the sign-in page.
    case cancel

    /// Never prints the password.
    public var description: String {
        switch self {
        case .signIn: "signIn(<redacted>)"
        case .cancel: "cancel"
        }
    }
}

/// The end of a token request (the composed machine's answer).
public typealias TokenOutcome = ComplianceMachine.TokenAnswer

/// The end of a sign-in.
public struct SignInOutcome: Sendable {
    public var account: AccountID
    public var signedIn: Bool
    public var token: TokenOutcome
}

/// The end of a remediation: exactly one report, and tokens when Compliant.
public struct RemediationOutcome: Sendable {
    public var report: ComplianceStatusReport
    public var tokens: TokenSet?
}

/// The end of a deregistration.
public struct DeregisterOutcome: Sendable {
    public var account: AccountID
    /// 104 UnenrollmentSuccess, or why the service could not be told (203 AuthRequired, …).
    public var enrollmentStatus: EnrollmentStatus?
    public var wiped: Bool
}

/// What the engine knows about one account.
public struct AccountSummary: Sendable {
    public var account: AccountID
    public var homeAccountID: String?
    public var signedIn: Bool
    public var managed: Bool
    public var enrollmentState: EnrollmentStateMachine.Phase
    public var lastEnrollmentStatus: EnrollmentStatus?
    public var nextDueAt: EpochMillis?
    public var compliance: ComplianceStatus?
    /// `idle`, the running step's name, or `queued`.
    public var remediation: String
    /// `idle`, the wipe's step, or `done`.
    public var wipe: String
    public var dataFiles: Int
}

/// A timer that fired during a clock advance.
public struct FiredTimer: Sendable, Hashable {
    public var timer: String
    public var account: AccountID?
    public var dueAt: EpochMillis
}
