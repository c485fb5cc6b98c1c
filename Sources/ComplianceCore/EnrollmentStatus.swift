/// Enrollment, policy and unenrollment result codes (IntuneMAMEnrollmentStatus; raw values are the SDK's).
public enum EnrollmentStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
    case newPoliciesReceived = 100
    case policiesHaveNotChanged = 101
    case wipeReceived = 102
    case noPolicyReceived = 103
    case unenrollmentSuccess = 104
    case accountNotLicensed = 200
    case internalError = 201
    case authRequired = 203
    case enrollmentEndPointNetworkFailure = 205
    case parsingFailure = 206
    case alreadyEnrolled = 208
    case notEmmAccount = 209
    case policyEndPointNetworkFailure = 212
    case appNotEnrolled = 213
    case notEnrolledAccount = 214
    case failedToClearMamData = 215
    case timeout = 216
    case switchExistingAccount = 218
    case loginCanceled = 219
    case licensedNotTargeted = 225
    case singleManagedAccountMode = 227

    /// True for the 1xx codes (the operation succeeded).
    public var isSuccess: Bool { rawValue < 200 }

    /// The SDK's name for the code.
    public var name: String {
        switch self {
        case .newPoliciesReceived: "NewPoliciesReceived"
        case .policiesHaveNotChanged: "PoliciesHaveNotChanged"
        case .wipeReceived: "WipeReceived"
        case .noPolicyReceived: "NoPolicyReceived"
        case .unenrollmentSuccess: "UnenrollmentSuccess"
        case .accountNotLicensed: "AccountNotLicensed"
        case .internalError: "InternalError"
        case .authRequired: "AuthRequired"
        case .enrollmentEndPointNetworkFailure: "EnrollmentEndPointNetworkFailure"
        case .parsingFailure: "ParsingFailure"
        case .alreadyEnrolled: "AlreadyEnrolled"
        case .notEmmAccount: "NotEmmAccount"
        case .policyEndPointNetworkFailure: "PolicyEndPointNetworkFailure"
        case .appNotEnrolled: "AppNotEnrolled"
        case .notEnrolledAccount: "NotEnrolledAccount"
        case .failedToClearMamData: "FailedToClearMamData"
        case .timeout: "Timeout"
        case .switchExistingAccount: "SwitchExistingAccount"
        case .loginCanceled: "LoginCanceled"
        case .licensedNotTargeted: "LicensedNotTargeted"
        case .singleManagedAccountMode: "SingleManagedAccountMode"
        }
    }

    /// What the code means, in words.
    public var message: String {
        switch self {
        case .newPoliciesReceived: "New app protection policies were received."
        case .policiesHaveNotChanged: "The app protection policies have not changed."
        case .wipeReceived: "The administrator sent a selective wipe command."
        case .noPolicyReceived: "Enrollment succeeded but no policy is assigned to this app."
        case .unenrollmentSuccess: "The account was unenrolled."
        case .accountNotLicensed: "The account has no Intune license; ask your administrator to assign one."
        case .internalError: "The app protection service reported an internal error; try again later."
        case .authRequired: "A token for the app protection service could not be obtained; sign in again."
        case .enrollmentEndPointNetworkFailure: "The enrollment service could not be reached; check the network."
        case .parsingFailure: "The app protection service sent an answer that could not be read."
        case .alreadyEnrolled: "The app is already enrolled for this account."
        case .notEmmAccount: "The account is not managed by Intune."
        case .policyEndPointNetworkFailure: "The policy service could not be reached; check the network."
        case .appNotEnrolled: "The app is not enrolled."
        case .notEnrolledAccount: "The account is not the enrolled account."
        case .failedToClearMamData: "The managed data could not be cleared."
        case .timeout: "The app protection service did not answer in time."
        case .switchExistingAccount: "Another account is enrolled; it must be removed before switching."
        case .loginCanceled: "Sign-in was cancelled."
        case .licensedNotTargeted: "The account is licensed but no app protection policy targets this app."
        case .singleManagedAccountMode: "Another account already manages this app; only one managed account is allowed at a time. Remove it first."
        }
    }

    public var description: String { "\(name)(\(rawValue))" }
}
