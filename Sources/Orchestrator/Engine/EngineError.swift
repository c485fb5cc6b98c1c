/// Why an engine request was refused or failed. ``code`` is stable (the control API sends it
/// as `error.code`); ``message`` says what was wrong and where.
public struct EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidAccount = "invalid_account", unknownAccount = "unknown_account", signInRefused = "sign_in_refused"
            case conflict, notFound = "not_found", badRequest = "bad_request", clockNotVirtual = "clock_not_virtual"
            case storageUnavailable = "storage_unavailable"
            case policyRequired = "policy_required"
            case identityNotAllowed = "identity_not_allowed", identityMismatch = "identity_mismatch"
            case accountRequired = "account_required"
            case invalidProtectedData = "invalid_protected_data", tampered, keyGone = "key_gone"
            case restartPending = "restart_pending"
            case internalError = "internal"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Not a UPN.
        public static let invalidAccount = Code(.invalidAccount)
        /// The engine has never seen the account.
        public static let unknownAccount = Code(.unknownAccount)
        /// The policy's allowed accounts do not include the account, or it is being removed.
        public static let signInRefused = Code(.signInRefused)
        /// The request conflicts with work in progress (e.g. the account is being wiped).
        public static let conflict = Code(.conflict)
        /// A vault file that does not exist.
        public static let notFound = Code(.notFound)
        /// A request the engine cannot act on (bad vault name, …).
        public static let badRequest = Code(.badRequest)
        /// Clock advance asked of a real clock.
        public static let clockNotVirtual = Code(.clockNotVirtual)
        /// The store or the vault refused a write (a full disk): nothing of the call was committed.
        public static let storageUnavailable = Code(.storageUnavailable)
        /// `MAMPolicyRequired` and no app protection policy in force yet.
        public static let policyRequired = Code(.policyRequired)
        /// The identity cannot be put in force (it leaves, the allowed accounts exclude it, or
        /// another account of the organization is the managed identity).
        public static let identityNotAllowed = Code(.identityNotAllowed)
        /// Managed data (a file or a buffer) asked for under a process identity other than its owner.
        public static let identityMismatch = Code(.identityMismatch)
        /// A sign-in without an account when the app has no managed user to use
        /// (`loginAndEnrollAccount(nil)`: the user must name one).
        public static let accountRequired = Code(.accountRequired)
        /// Protected data whose header is broken (`unprotect`, `protectionInfo`).
        public static let invalidProtectedData = Code(.invalidProtectedData)
        /// Encrypted data that fails authentication: modified, truncated, or not ours.
        public static let tampered = Code(.tampered)
        /// Data encrypted for an account whose key is gone (its data was wiped).
        public static let keyGone = Code(.keyGone)
        /// The app owes a restart (its restart hook answered YES) and has not reported it.
        public static let restartPending = Code(.restartPending)
        /// The store or the vault failed.
        public static let internalError = Code(.internalError)

        public var description: String { base.rawValue }

        /// The HTTP status the control API answers this code with: the one table of codes
        /// and statuses (exhaustive, so a new code cannot fall through to a 500).
        public var httpStatus: Int {
            switch base {
            case .invalidAccount, .badRequest, .invalidProtectedData: 400
            case .signInRefused, .policyRequired, .identityNotAllowed, .identityMismatch: 403
            case .unknownAccount, .notFound: 404
            case .conflict, .clockNotVirtual, .restartPending: 409
            case .keyGone: 410
            case .tampered, .accountRequired: 422
            case .internalError: 500
            // The store or the vault refused a write (a full disk): the documented 503, which
            // tells the caller nothing was committed and the call may be made again.
            case .storageUnavailable: 503
            }
        }

        /// Every code.
        public static let all: [Code] = [
            invalidAccount, unknownAccount, signInRefused, conflict, notFound, badRequest, clockNotVirtual, storageUnavailable, policyRequired,
            identityNotAllowed, identityMismatch, accountRequired, invalidProtectedData, tampered, keyGone, restartPending, internalError,
        ]
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
