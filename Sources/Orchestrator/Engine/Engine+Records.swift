import ComplianceCore
import JSON

/// The machine's records in the store, and the conversion of a store written by the
/// versions before the composed machine (one row per sub-machine) into them.
extension Engine {
    /// The stored records. A store of the earlier layout is converted into records and every
    /// record is written in one transaction before they are returned: the next start reads
    /// them directly, and no account is left without a record (a later start reads only
    /// accounts that have one).
    func loadRecords() throws -> ComplianceMachine.Stored {
        let stored = try store.readSync { transaction -> (records: ComplianceMachine.Stored, converted: Bool) in
            let app = try transaction.appState(StateKey.machine)
            let accounts = try transaction.machineRecords()
            if app != nil || !accounts.isEmpty { return (ComplianceMachine.Stored(app: app, accounts: accounts), false) }
            return (try Self.legacyRecords(transaction), true)
        }
        if stored.converted, let app = stored.records.app {
            try store.writeSync { transaction in
                try transaction.saveAppState(StateKey.machine, app)
                for record in stored.records.accounts {
                    guard let account = ComplianceMachine.summary(ofRecord: record)?.account else { continue }
                    try transaction.saveMachineRecord(account, record: record)
                }
            }
            logger.notice("the store's earlier layout was converted into machine records", metadata: ["accounts": "\(stored.records.accounts.count)"])
        }
        return stored.records
    }

    /// The earlier layout as the store holds it: the remediation and allowed-accounts
    /// snapshots, the last compliance and retried request per account (app state), each
    /// account's enrollment snapshot, wipe journal and MAM registration. What they become is
    /// the machine's (``ComplianceMachine/records(converting:)``).
    static func legacyRecords(_ transaction: StoreTransaction) throws -> ComplianceMachine.Stored {
        let remediation = try transaction.appState("remediation")
        let allowed = try transaction.appState("allowedAccounts")
        let rows = try transaction.accounts()
        let compliance = try transaction.appState("compliance")?.objectValue ?? JSONObject()
        let requests = try transaction.appState("remediationRequests")?.objectValue ?? JSONObject()
        let lastStatuses = Dictionary(
            try transaction.lastEnrollmentStatuses().map { ($0.account.key, $0.status) }, uniquingKeysWith: { first, _ in first })
        let enrollmentRows = try transaction.enrollments()
        let enrollments = Dictionary(enrollmentRows.map { ($0.account.key, $0.state) }, uniquingKeysWith: { first, _ in first })
        let enrollmentStatuses = Dictionary(enrollmentRows.compactMap { row in row.lastStatus.map { (row.account.key, $0) } }, uniquingKeysWith: { first, _ in first })
        let journals = Dictionary(grouping: try transaction.openJournals(), by: \.account.key)
        var accounts: [ComplianceMachine.EarlierAccount] = []
        for row in rows {
            let account = row.id
            let registration = try transaction.registration(for: account)
            accounts.append(ComplianceMachine.EarlierAccount(
                account: account, homeAccountID: row.homeAccountID, signedIn: row.signedIn, holdsTokens: try transaction.hasTokens(account),
                compliance: compliance[account.key], accountLastStatus: lastStatuses[account.key],
                enrollmentRowLastStatus: enrollmentStatuses[account.key], retryScopes: requests[account.key], enrollmentID: registration?.enrollmentID,
                registeredPolicy: registration?.policy, enrollment: enrollments[account.key],
                journals: (journals[account.key] ?? []).map { .init(kind: $0.kind.rawValue, state: $0.state) }))
        }
        let earlier = ComplianceMachine.EarlierLayout(remediation: remediation, allowedAccounts: allowed, accounts: accounts)
        return ComplianceMachine.records(converting: earlier) ?? ComplianceMachine.Stored(app: nil, accounts: [])
    }
}
