/// The result of a remediation (IntuneMAMComplianceStatus; raw values are the SDK's).
///
/// Every status but ``compliant`` means the app has no token for the account.
public enum ComplianceStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
    case compliant = 0
    case notCompliant = 1
    case serviceFailure = 2
    case networkFailure = 3
    case interactionRequired = 4
    case userCancelled = 5

    /// A short title for an alert.
    public var title: String {
        switch self {
        case .compliant: "Account is compliant"
        case .notCompliant: "Access blocked by your organization"
        case .serviceFailure: "Compliance service unavailable"
        case .networkFailure: "No connection to the compliance service"
        case .interactionRequired: "Sign-in required"
        case .userCancelled: "Sign-in cancelled"
        }
    }

    /// A message a person can act on, naming the account.
    public func message(for account: AccountID) -> String {
        switch self {
        case .compliant:
            "\(account.upn) meets your organization's app protection requirements; you can continue."
        case .notCompliant:
            "\(account.upn) cannot use this app under your organization's app protection policy. Contact your IT administrator."
        case .serviceFailure:
            "The app protection service could not check \(account.upn). Try again later; if it persists, contact your IT administrator."
        case .networkFailure:
            "The app protection service could not be reached for \(account.upn). Check your network connection and try again."
        case .interactionRequired:
            "\(account.upn) must sign in again before the app can apply your organization's protection policy. Sign in to continue."
        case .userCancelled:
            "Sign-in for \(account.upn) was cancelled, so your organization's protection policy could not be applied. Sign in to continue."
        }
    }

    public var description: String {
        switch self {
        case .compliant: "Compliant(0)"
        case .notCompliant: "NotCompliant(1)"
        case .serviceFailure: "ServiceFailure(2)"
        case .networkFailure: "NetworkFailure(3)"
        case .interactionRequired: "InteractionRequired(4)"
        case .userCancelled: "UserCancelled(5)"
        }
    }
}

/// The one status a remediation delivers, with its alert text.
public struct ComplianceStatusReport: Sendable, Hashable, CustomStringConvertible, Codable {
    public var account: AccountID
    public var status: ComplianceStatus
    /// The enrollment status behind a failure, when one caused it (e.g. 227).
    public var enrollmentStatus: EnrollmentStatus?
    public var title: String
    public var message: String

    /// A report with the status's title and message; the enrollment status (if any) and
    /// `detail` are appended to the message.
    public init(account: AccountID, status: ComplianceStatus, enrollmentStatus: EnrollmentStatus? = nil, detail: String? = nil) {
        self.account = account
        self.status = status
        self.enrollmentStatus = enrollmentStatus
        self.title = status.title
        var message = status.message(for: account)
        if let enrollmentStatus, status != .compliant {
            message += " (\(enrollmentStatus.name) \(enrollmentStatus.rawValue): \(enrollmentStatus.message))"
        }
        if let detail { message += " \(detail)" }
        self.message = message
    }

    /// Restores a stored report exactly.
    init(account: AccountID, status: ComplianceStatus, enrollmentStatus: EnrollmentStatus?, title: String, message: String) {
        self.account = account
        self.status = status
        self.enrollmentStatus = enrollmentStatus
        self.title = title
        self.message = message
    }

    public var description: String { "\(account.upn): \(status) \(title): \(message)" }
}
