import ComplianceCore
import JSON

/// Everything outside the machine, as the explorer models it: the issuer and the MAM service
/// (what they answer), and the app's durable stores (committed records, token store, vault),
/// keyed by the bytes the Orchestrator would use, so two spellings are two keys unless the
/// machine normalised them. Plus the history the invariants look at (``facts``).
public struct World: Sendable, Hashable {
    // MARK: The services (they identify a user by its name, ignoring case and spelling)

    /// Users targeted for App Protection CA.
    public var caTargeted: Set<String>
    /// Users the MAM service considers compliant (a report was accepted).
    public var compliant: Set<String> = []
    /// Whether the users have MAM policy assigned.
    public var policyAssigned = true
    /// The policy's allowed accounts (nil: anyone) and version.
    public var allowedAccounts: [String]?
    public var policyVersion = 1
    /// Enrollments the MAM service holds: user → enrollment number.
    public var enrolled: [String: Int] = [:]
    public var nextEnrollment = 1
    /// Users with an admin wipe waiting for their next check-in.
    public var wipeQueued: Set<String> = []

    // MARK: The app's stores

    /// The committed records.
    public var durable = ComplianceMachine.Stored(app: nil, accounts: [])
    /// The token store: per key, a refresh token and access tokens per scope (expiry).
    public var tokens: [[UInt8]: TokenRecord] = [:]
    /// Keys with managed files in the vault.
    public var vault: Set<[UInt8]> = []
    /// The virtual clock.
    public var now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)
    public var issued = 0

    /// What the invariants read.
    public var facts = ComplianceInvariants.Facts()

    /// A key's tokens.
    public struct TokenRecord: Sendable, Hashable {
        public var refresh = false
        public var access: [String: Instant] = [:]
    }

    public init(universe: Universe) {
        caTargeted = Set(universe.caTargeted.map(Self.user))
        allowedAccounts = universe.allowedAccounts
    }

    /// The services' name for an account: lowercased, compared by Swift's canonical equality.
    public static func user(_ upn: String) -> String { upn.lowercased() }

    static func user(_ account: AccountID) -> String { user(account.upn) }

    // MARK: - Stores

    /// Applies a committed persist: records, tokens, and what its notifications tell.
    mutating func commit(_ changes: ComplianceMachine.Changes, machine: ComplianceMachine) {
        if let app = changes.app { durable.app = app }
        if !changes.accounts.isEmpty {
            var records: [String: JSONValue] = [:]
            for record in durable.accounts { records[Self.recordKey(record)] = record }
            for (account, record) in changes.accounts { records[account.key] = record }
            durable.accounts = records.keys.sorted().compactMap { records[$0] }
        }
        for entry in changes.tokens {
            let key = ComplianceInvariants.storeKey(entry.account)
            var record = tokens[key] ?? TokenRecord()
            if entry.tokens.refreshToken != nil { record.refresh = true }
            record.access[entry.scopes.sorted().joined(separator: " ")] = entry.tokens.expiresOn
            tokens[key] = record
        }
        for event in changes.events {
            switch event {
            case .remediationStarted(let account, _):
                facts.remediationsStarted[ComplianceInvariants.storeKey(account), default: 0] += 1
            case .compliance(let report):
                facts.reportsDelivered[ComplianceInvariants.storeKey(report.account), default: 0] += 1
            case .wipeFinished(let account):
                if let generation = machine.wipeGeneration(of: account) {
                    facts.wipesCommittedDone.insert(.init(key: ComplianceInvariants.storeKey(account), generation: generation))
                }
            default:
                break
            }
        }
    }

    static func recordKey(_ record: JSONValue) -> String {
        guard let upn = record["account"]?["upn"]?.stringValue, let account = try? AccountID(upn) else { return "" }
        return account.key
    }

    /// The token store's answer for `account` and `scopes` at `now`.
    func cacheEntry(_ account: AccountID, scopes: [String]) -> TokenAcquisitionStateMachine.CacheEntry {
        guard let record = tokens[ComplianceInvariants.storeKey(account)] else { return .empty }
        var access: TokenSet?
        if let expiry = record.access[scopes.sorted().joined(separator: " ")] {
            access = TokenSet(accessToken: SecretToken("cached-at"), expiresOn: expiry, scopes: scopes)
        }
        return .init(accessToken: access, hasRefreshToken: record.refresh)
    }

    // MARK: - The issuer

    /// The issuer's normal answer to a grant for `scopes`: a token, or 53005 when CA applies.
    mutating func grantAnswer(_ account: AccountID, scopes: [String]) -> TokenResponse {
        let user = Self.user(account)
        if !scopes.contains(RemediationStateMachine.mamScope), caTargeted.contains(user), !compliant.contains(user) {
            return .protectionPolicyRequired(ProtectionPolicyRequired(
                displayableID: account.upn, homeAccountID: nil, tenantID: "contoso.com", authority: "https://login.example/contoso.com",
                correlationID: nil, serverError: ServerError(status: 400, error: "unauthorized_client", errorCodes: [53005], suberror: "protection_policy_required")))
        }
        issued += 1
        return .success(TokenSet(
            accessToken: SecretToken("at-\(issued)"), refreshToken: SecretToken("rt-\(issued)"), expiresOn: now.advanced(by: .hours(1)), scopes: scopes))
    }

    // MARK: - The MAM service

    /// The policy the service sends.
    var policy: MAMPolicy {
        let allowed = allowedAccounts.map { list in AllowedAccounts(list.compactMap { try? AccountID($0) }) } ?? .anyone
        return MAMPolicy(version: String(policyVersion), allowedAccounts: allowed)
    }

    /// The service's normal answer to `request`, and its effect on the service.
    mutating func mamAnswer(_ request: ComplianceMachine.MAMRequest) -> ComplianceMachine.MAMResult {
        let user = Self.user(request.account)
        switch request {
        case .enroll:
            guard policyAssigned else { return .failed(.licensedNotTargeted, detail: "no policy assigned") }
            if let number = enrolled[user] { return .enrolled(.alreadyEnrolled, enrollmentID: "e\(number)", policy: policy) }
            enrolled[user] = nextEnrollment
            nextEnrollment += 1
            facts.enrolledAtService.insert(ComplianceInvariants.storeKey(request.account))
            facts.unenrollSent.remove(ComplianceInvariants.storeKey(request.account))
            return .enrolled(.newPoliciesReceived, enrollmentID: "e\(enrolled[user]!)", policy: policy)
        case .checkIn(_, let id, let version, _):
            guard let number = enrolled[user], "e\(number)" == id else { return .failed(.appNotEnrolled, detail: "unknown enrollment \(id)") }
            if wipeQueued.remove(user) != nil {
                enrolled[user] = nil
                compliant.remove(user)
                facts.enrolledAtService = facts.enrolledAtService.filter { !ComplianceInvariants.key($0, names: request.account) }
                return .checkedIn(.wipeReceived)
            }
            guard policyAssigned else { return .checkedIn(.noPolicyReceived) }
            if version != String(policyVersion) { return .checkedIn(.newPoliciesReceived(policy)) }
            return .checkedIn(.policiesHaveNotChanged)
        case .unenroll(_, let id, _):
            facts.unenrollSent.insert(ComplianceInvariants.storeKey(request.account))
            guard let number = enrolled[user], "e\(number)" == id else { return .failed(.appNotEnrolled, detail: "unknown enrollment \(id)") }
            enrolled[user] = nil
            compliant.remove(user)
            facts.enrolledAtService = facts.enrolledAtService.filter { !ComplianceInvariants.key($0, names: request.account) }
            return .unenrolled
        case .reportCompliance(_, let id, _, _):
            guard let number = enrolled[user], "e\(number)" == id else { return .failed(.notEnrolledAccount, detail: "not enrolled") }
            guard policyAssigned else { return .failed(.licensedNotTargeted, detail: "no policy") }
            compliant.insert(user)
            return .complianceReported
        }
    }
}

