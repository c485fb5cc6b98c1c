import JSON

/// What is stored of the machine: one app record and one record per account, each rewritten
/// whole when the step changed it; and how a machine is rebuilt from them.
extension ComplianceMachine {
    /// The records as stored.
    public struct Stored: Sendable, Hashable, Codable {
        /// The app record (`{"machine":"app",…}`), nil before the first commit.
        public var app: JSONValue?
        /// One record per account (`{"machine":"account",…}`).
        public var accounts: [JSONValue]

        public init(app: JSONValue?, accounts: [JSONValue]) {
            self.app = app
            self.accounts = accounts
        }

        /// No record at all: a first start, or a store that was lost or replaced.
        public var isEmpty: Bool { app == nil && accounts.isEmpty }

        /// Why the machine must not start from these records beside a vault that holds the
        /// files of `vaultAccounts` accounts, or nil when it may: no record at all beside
        /// accounts' files means the store was lost or replaced, and starting empty would
        /// leave those files with no owner the machine knows (never wiped, never re-protected).
        public func startRefusal(vaultAccounts: Int) -> String? {
            guard isEmpty, vaultAccounts > 0 else { return nil }
            return "the store holds no accounts, but the vault holds the files of \(vaultAccounts) account(s): the store was lost or replaced"
        }
    }

    /// Rebuilds the machine from its stored records; call ``resumed(now:)`` next. Throws
    /// naming the record and field that cannot be read.
    public init(restoring stored: Stored, configuration: Configuration) throws(StoredValueError) {
        self.init(configuration: configuration)
        if let app = stored.app {
            let reader = try StoredReader(app, path: "app")
            guard try reader.string("machine") == "app" else { throw reader.invalid("machine", "not an app record") }
            try reader.checkVersion(1)
            remediation = RemediationStateMachine(restoring: try .init(json: app["remediation"] ?? .null))
            allowed = AllowedAccountsStateMachine(restoring: try .init(json: app["allowedAccounts"] ?? .null))
            restartPending = try reader.optionalAccount("restartPending")
            if let overrides = app["settingsOverrides"], !overrides.isNull {
                settingsOverrides = try SettingsOverrides(stored: overrides, path: "app.settingsOverrides")
            }
            restartOwedByApp = try reader.optionalAccount("restartOwed")
            restartAsked = try reader.optionalAccount("restartAsked")
        }
        remediationSnapshot = remediation.snapshot
        allowedSnapshot = allowed.snapshot
        for (index, record) in stored.accounts.enumerated() {
            let state = try AccountState(record: record, path: "accounts[\(index)]")
            accounts[state.account] = state
        }
    }

    /// The records a step changed: the sub-machines' snapshots that differ from the stored
    /// ones, the accounts marked dirty, the tokens and notifications; resets the step.
    mutating func takeChanges() -> Changes {
        if remediation.snapshot != remediationSnapshot {
            remediationSnapshot = remediation.snapshot
            volatile.appDirty = true
        }
        if allowed.snapshot != allowedSnapshot {
            allowedSnapshot = allowed.snapshot
            volatile.appDirty = true
        }
        for account in volatile.touched {
            guard var state = accounts[account] else { continue }
            let enrollment = state.enrollment.snapshot
            let wipe = state.wipe.snapshot
            if enrollment != state.enrollmentSnapshot || wipe != state.wipeSnapshot {
                state.enrollmentSnapshot = enrollment
                state.wipeSnapshot = wipe
                accounts[account] = state
                volatile.dirtyAccounts.insert(account)
            }
        }
        var changes = Changes()
        if volatile.appDirty { changes.app = appRecord }
        for account in volatile.dirtyAccounts {
            if let state = accounts[account] { changes.accounts[account] = state.record }
        }
        // Tokens an account got in this step but may no longer hold by its end (its request
        // failed into a wipe, e.g. a remediation whose retried request was declined a scope)
        // are not written: the wipe would only have to remove them again.
        changes.tokens = volatile.tokens.filter { mayReceiveToken($0.account) }
        changes.events = volatile.events
        volatile.appDirty = false
        volatile.dirtyAccounts = []
        volatile.touched = []
        volatile.tokens = []
        volatile.events = []
        return changes
    }

    /// `{"machine":"app","version":1,"remediation":…,"allowedAccounts":…,"restartPending":…}`,
    /// `"restartOwed"` while the app owes a restart, `"restartAsked"` while a restart asked for
    /// has not happened, `"settingsOverrides"` while one is set.
    var appRecord: JSONValue {
        var members: [(String, JSONValue)] = [
            ("machine", "app"), ("version", 1), ("remediation", remediationSnapshot.json), ("allowedAccounts", allowedSnapshot.json),
            ("restartPending", restartPending?.stored ?? .null),
        ]
        if let restartOwedByApp { members.append(("restartOwed", restartOwedByApp.stored)) }
        if let restartAsked { members.append(("restartAsked", restartAsked.stored)) }
        if !settingsOverrides.isEmpty { members.append(("settingsOverrides", settingsOverrides.json)) }
        return .object(JSONObject(members))
    }

    /// What an account record says, for the columns the store keeps beside it.
    public struct RecordSummary: Sendable, Hashable, Codable {
        public var account: AccountID
        public var signedIn: Bool
        /// Enrolled (or checking in) with the MAM service.
        public var managed: Bool
        public var lastEnrollmentStatus: EnrollmentStatus?
    }

    /// Reads an account record's summary (nil when it is not a readable account record).
    public static func summary(ofRecord record: JSONValue) -> RecordSummary? {
        guard let state = try? AccountState(record: record, path: "account") else { return nil }
        return RecordSummary(
            account: state.account, signedIn: state.signedIn, managed: state.enrollment.isEnrolled, lastEnrollmentStatus: state.lastEnrollmentStatus)
    }

    /// Every record as it would be stored now (for a full write and for tests).
    public var stored: Stored {
        Stored(app: appRecord, accounts: accounts.keys.sorted().compactMap { accounts[$0]?.record })
    }
}

extension ComplianceMachine.AccountState {
    /// `{"machine":"account","version":1,"account":…,"signedIn":…,"holdsTokens":…,"subject":…,"compliance":…,
    /// "lastEnrollmentStatus":…,"retryScopes":…,"enrollmentId":…,"offeredPolicy":…,"policy":…,
    /// "enrollment":…,"wipe":…}`.
    var record: JSONValue {
        var object = JSONObject()
        object["machine"] = .string("account")
        object["version"] = .int(1)
        object["account"] = account.stored
        object["signedIn"] = .bool(signedIn)
        object["holdsTokens"] = .bool(holdsTokens)
        object["subject"] = subject.map { .string($0) } ?? .null
        object["compliance"] = compliance.map { JSONValue.int(Int64($0.rawValue)) } ?? .null
        object["lastEnrollmentStatus"] = lastEnrollmentStatus.map { JSONValue.int(Int64($0.rawValue)) } ?? .null
        object["retryScopes"] = retryScopes.map { JSONValue.array($0.map { JSONValue.string($0) }) } ?? .null
        object["enrollmentId"] = enrollmentID.map { JSONValue.string($0) } ?? .null
        object["offeredPolicy"] = offeredPolicy?.json ?? .null
        object["policy"] = policy?.json ?? .null
        object["enrollment"] = enrollmentSnapshot.json
        object["wipe"] = wipeSnapshot.json
        return .object(object)
    }

    init(record: JSONValue, path: String) throws(StoredValueError) {
        let reader = try StoredReader(record, path: path)
        guard try reader.string("machine") == "account" else { throw reader.invalid("machine", "not an account record") }
        try reader.checkVersion(1)
        self.init(account: try reader.account("account"))
        signedIn = try reader.bool("signedIn")
        holdsTokens = try reader.bool("holdsTokens")
        subject = reader.has("subject") ? try reader.string("subject") : nil
        if reader.has("compliance") {
            let code = try reader.int("compliance")
            guard let status = ComplianceStatus(rawValue: Int(truncatingIfNeeded: code)) else { throw reader.invalid("compliance", "unknown compliance status \(code)") }
            compliance = status
        }
        if reader.has("lastEnrollmentStatus") {
            let code = try reader.int("lastEnrollmentStatus")
            guard let status = EnrollmentStatus(rawValue: Int(truncatingIfNeeded: code)) else {
                throw reader.invalid("lastEnrollmentStatus", "unknown enrollment status \(code)")
            }
            lastEnrollmentStatus = status
        }
        if reader.has("retryScopes") {
            retryScopes = try reader.array("retryScopes").map { value throws(StoredValueError) in
                guard let scope = value.stringValue else { throw reader.invalid("retryScopes", "a scope is not a string") }
                return scope
            }
        }
        enrollmentID = reader.has("enrollmentId") ? try reader.string("enrollmentId") : nil
        offeredPolicy = reader.has("offeredPolicy") ? try MAMPolicy(json: record["offeredPolicy"] ?? .null) : nil
        policy = reader.has("policy") ? try MAMPolicy(json: record["policy"] ?? .null) : nil
        enrollmentSnapshot = try EnrollmentStateMachine.Snapshot(json: record["enrollment"] ?? .null)
        enrollment = EnrollmentStateMachine(restoring: enrollmentSnapshot)
        wipeSnapshot = try SelectiveWipeStateMachine.Snapshot(json: record["wipe"] ?? .null)
        wipe = SelectiveWipeStateMachine(restoring: wipeSnapshot)
        guard enrollment.account == account, wipe.account == account else {
            throw reader.invalid("account", "the record's machines belong to another account")
        }
    }
}
