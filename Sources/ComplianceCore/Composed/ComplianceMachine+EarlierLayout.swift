import JSON

/// The store written by the versions before the composed machine (one row or value per
/// sub-machine), converted into the machine's records once, at the first start that finds it.
/// The store reads the old rows (``EarlierLayout``); what each becomes is decided here.
extension ComplianceMachine {
    /// What a store of the earlier layout held, as read.
    public struct EarlierLayout: Sendable {
        /// The remediation machine's snapshot (app state `remediation`).
        public var remediation: JSONValue?
        /// The allowed-accounts machine's snapshot (app state `allowedAccounts`).
        public var allowedAccounts: JSONValue?
        public var accounts: [EarlierAccount]

        public init(remediation: JSONValue?, allowedAccounts: JSONValue?, accounts: [EarlierAccount]) {
            self.remediation = remediation
            self.allowedAccounts = allowedAccounts
            self.accounts = accounts
        }
    }

    /// One account of the earlier layout: its row, and what other rows held of it.
    public struct EarlierAccount: Sendable {
        public var account: AccountID
        public var homeAccountID: String?
        public var signedIn: Bool
        public var holdsTokens: Bool
        /// The last compliance status (app state `compliance`, by account key).
        public var compliance: JSONValue?
        /// The account's column, else the enrollment row's (the older place).
        public var lastEnrollmentStatus: Int?
        /// The request a remediation retries (app state `remediationRequests`).
        public var retryScopes: JSONValue?
        /// The MAM registration: its enrollment id and the policy it received.
        public var enrollmentID: String?
        public var registeredPolicy: JSONValue?
        /// The enrollment machine's snapshot, the open wipe journal's state.
        public var enrollment: JSONValue?
        public var wipe: JSONValue?

        public init(
            account: AccountID, homeAccountID: String?, signedIn: Bool, holdsTokens: Bool, compliance: JSONValue?, lastEnrollmentStatus: Int?,
            retryScopes: JSONValue?, enrollmentID: String?, registeredPolicy: JSONValue?, enrollment: JSONValue?, wipe: JSONValue?
        ) {
            self.account = account
            self.homeAccountID = homeAccountID
            self.signedIn = signedIn
            self.holdsTokens = holdsTokens
            self.compliance = compliance
            self.lastEnrollmentStatus = lastEnrollmentStatus
            self.retryScopes = retryScopes
            self.enrollmentID = enrollmentID
            self.registeredPolicy = registeredPolicy
            self.enrollment = enrollment
            self.wipe = wipe
        }
    }

    /// The records an earlier-layout store converts into (nil: it held nothing). A registered
    /// policy is kept only for an account whose enrollment holds the managed slot: the policy
    /// in force is the managed account's; another account's registration keeps its id alone.
    public static func records(converting earlier: EarlierLayout) -> Stored? {
        guard earlier.remediation != nil || earlier.allowedAccounts != nil || !earlier.accounts.isEmpty else { return nil }
        var app = ComplianceMachine(configuration: .init()).appRecord.objectValue ?? JSONObject()
        if let remediation = earlier.remediation { app["remediation"] = remediation }
        if let allowed = earlier.allowedAccounts { app["allowedAccounts"] = allowed }
        let records = earlier.accounts.map { old -> JSONValue in
            var record = JSONObject()
            record["machine"] = .string("account")
            record["version"] = .int(1)
            record["account"] = ["upn": .string(old.account.upn), "home": old.homeAccountID.map { .string($0) } ?? .null]
            record["signedIn"] = .bool(old.signedIn)
            record["holdsTokens"] = .bool(old.holdsTokens)
            record["compliance"] = old.compliance ?? .null
            record["lastEnrollmentStatus"] = old.lastEnrollmentStatus.map { .int(Int64($0)) } ?? .null
            record["retryScopes"] = old.retryScopes ?? .null
            record["enrollmentId"] = old.enrollmentID.map { .string($0) } ?? .null
            record["offeredPolicy"] = .null
            let holdsSlot = old.enrollment.map { EnrollmentStateMachine.holdsManagedSlot(stored: $0) } ?? false
            record["policy"] = holdsSlot ? (old.registeredPolicy ?? .null) : .null
            record["enrollment"] = old.enrollment ?? EnrollmentStateMachine(account: old.account).snapshot.json
            record["wipe"] = old.wipe ?? SelectiveWipeStateMachine(account: old.account).snapshot.json
            return .object(record)
        }
        return Stored(app: .object(app), accounts: records)
    }
}
