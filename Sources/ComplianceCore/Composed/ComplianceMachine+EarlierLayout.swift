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
        /// The last enrollment status in the account's column (the newer place) and in the
        /// enrollment row (the older place).
        public var accountLastStatus: Int?
        public var enrollmentRowLastStatus: Int?
        /// The request a remediation retries (app state `remediationRequests`).
        public var retryScopes: JSONValue?
        /// The MAM registration: its enrollment id and the policy it received.
        public var enrollmentID: String?
        public var registeredPolicy: JSONValue?
        /// The enrollment machine's snapshot.
        public var enrollment: JSONValue?
        /// The account's open journals, oldest first: (kind, state).
        public var journals: [EarlierJournal]

        public init(
            account: AccountID, homeAccountID: String?, signedIn: Bool, holdsTokens: Bool, compliance: JSONValue?, accountLastStatus: Int?,
            enrollmentRowLastStatus: Int?, retryScopes: JSONValue?, enrollmentID: String?, registeredPolicy: JSONValue?, enrollment: JSONValue?,
            journals: [EarlierJournal]
        ) {
            self.account = account
            self.homeAccountID = homeAccountID
            self.signedIn = signedIn
            self.holdsTokens = holdsTokens
            self.compliance = compliance
            self.accountLastStatus = accountLastStatus
            self.enrollmentRowLastStatus = enrollmentRowLastStatus
            self.retryScopes = retryScopes
            self.enrollmentID = enrollmentID
            self.registeredPolicy = registeredPolicy
            self.enrollment = enrollment
            self.journals = journals
        }
    }

    /// An open journal of the earlier layout: a sub-machine's progress, by kind.
    public struct EarlierJournal: Sendable {
        public var kind: String
        public var state: JSONValue

        public init(kind: String, state: JSONValue) {
            self.kind = kind
            self.state = state
        }
    }

    /// The records an earlier-layout store converts into (nil: it held nothing). A registered
    /// policy is kept only for an account whose enrollment holds the managed slot: the policy
    /// in force is the managed account's; another account's registration keeps its id alone.
    /// The last enrollment status is the account column's, else the enrollment row's. Of the
    /// open journals only a wipe's is resumed (its oldest): the earlier layout's remediation,
    /// enrollment and deregistration journals are redone from the machines' own snapshots.
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
            record["lastEnrollmentStatus"] = (old.accountLastStatus ?? old.enrollmentRowLastStatus).map { .int(Int64($0)) } ?? .null
            record["retryScopes"] = old.retryScopes ?? .null
            record["enrollmentId"] = old.enrollmentID.map { .string($0) } ?? .null
            record["offeredPolicy"] = .null
            let holdsSlot = old.enrollment.map { EnrollmentStateMachine.holdsManagedSlot(stored: $0) } ?? false
            record["policy"] = holdsSlot ? (old.registeredPolicy ?? .null) : .null
            record["enrollment"] = old.enrollment ?? EnrollmentStateMachine(account: old.account).snapshot.json
            let wipe = old.journals.first { $0.kind == "wipe" }?.state
            record["wipe"] = wipe ?? SelectiveWipeStateMachine(account: old.account).snapshot.json
            return .object(record)
        }
        return Stored(app: .object(app), accounts: records)
    }
}
