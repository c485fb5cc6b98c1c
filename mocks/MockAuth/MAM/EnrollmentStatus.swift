/// The Intune App SDK's enrollment status codes (IntuneMAMEnrollmentStatus).
public struct EnrollmentStatus: Sendable, Hashable {
    public let code: Int
    public let name: String

    public static let newPoliciesReceived = EnrollmentStatus(code: 100, name: "NewPoliciesReceived")
    public static let policiesHaveNotChanged = EnrollmentStatus(code: 101, name: "PoliciesHaveNotChanged")
    public static let wipeReceived = EnrollmentStatus(code: 102, name: "WipeReceived")
    public static let noPolicyReceived = EnrollmentStatus(code: 103, name: "NoPolicyReceived")
    public static let unenrollmentSuccess = EnrollmentStatus(code: 104, name: "UnenrollmentSuccess")
    public static let accountNotLicensed = EnrollmentStatus(code: 200, name: "AccountNotLicensed")
    public static let alreadyEnrolled = EnrollmentStatus(code: 208, name: "AlreadyEnrolled")
    public static let appNotEnrolled = EnrollmentStatus(code: 213, name: "AppNotEnrolled")
    public static let licensedNotTargeted = EnrollmentStatus(code: 225, name: "LicensedNotTargeted")
}

/// IntuneMAMComplianceStatus values used by report-compliance.
public struct ComplianceStatus: Sendable, Hashable {
    public let code: Int
    public let name: String

    public static let compliant = ComplianceStatus(code: 0, name: "Compliant")
    public static let notCompliant = ComplianceStatus(code: 1, name: "NotCompliant")
}
