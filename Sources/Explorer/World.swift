import ComplianceCore
import JSON

/// Everything outside the machine, as the explorer models it: the issuer and the MAM service
/// (what they answer), and the app's durable stores (committed records, token store, vault),
/// keyed by the bytes the Orchestrator would use, so two spellings are two keys unless the
/// machine normalised them. Plus the history the invariants look at (``facts``).
public struct World: Sendable, Hashable, Codable {
    // Equality and hashing leave out the committed records: at the end of every transition
    // they are what the machine's stored snapshots say, so they tell no two states apart
    // (and hashing them would cost most of the exploration's time).
    public static func == (lhs: World, rhs: World) -> Bool {
        lhs.caTargeted == rhs.caTargeted && lhs.compliant == rhs.compliant && lhs.policyAssigned == rhs.policyAssigned
            && lhs.allowedAccounts == rhs.allowedAccounts && lhs.policyVersion == rhs.policyVersion && lhs.enrolled == rhs.enrolled
            && lhs.nextEnrollment == rhs.nextEnrollment && lhs.wipeQueued == rhs.wipeQueued && lhs.tokens == rhs.tokens && lhs.vault == rhs.vault
            && lhs.plainFiles == rhs.plainFiles
            && lhs.now == rhs.now && lhs.issued == rhs.issued && lhs.facts == rhs.facts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(caTargeted)
        hasher.combine(compliant)
        hasher.combine(policyAssigned)
        hasher.combine(allowedAccounts)
        hasher.combine(policyVersion)
        hasher.combine(enrolled)
        hasher.combine(nextEnrollment)
        hasher.combine(wipeQueued)
        hasher.combine(tokens)
        hasher.combine(vault)
        hasher.combine(plainFiles)
        hasher.combine(now)
        hasher.combine(issued)
        hasher.combine(facts)
    }

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

    /// The committed records: the app record and each account's, by account key.
    public var durableApp: JSONValue?
    public var durableAccounts: [String: JSONValue] = [:]

    /// The committed records, as the Orchestrator reads them back.
    public var durable: ComplianceMachine.Stored {
        ComplianceMachine.Stored(app: durableApp, accounts: durableAccounts.keys.sorted().compactMap { durableAccounts[$0] })
    }
    /// The token store: per key and issuer (environment), a refresh token and access tokens
    /// per scope (expiry).
    public var tokens: [TokenKey: TokenRecord] = [:]
    /// Keys with managed files in the vault.
    public var vault: Set<[UInt8]> = []
    /// Keys with files stored plain (written while their account's policy did not require
    /// encryption): the rest of ``vault``'s files are encrypted.
    public var plainFiles: Set<[UInt8]> = []
    /// The virtual clock.
    public var now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)
    public var issued = 0

    /// What the invariants read.
    public var facts = ComplianceInvariants.Facts()

    /// Where the token store files tokens: the account's key bytes and the issuer.
    public struct TokenKey: Sendable, Hashable, Codable {
        public var key: [UInt8]
        public var environment: TokenEnvironment
    }

    /// A key's tokens: the refresh token names the issuer that issued it.
    public struct TokenRecord: Sendable, Hashable, Codable {
        public var refresh: TokenEnvironment?
        public var access: [String: Instant] = [:]
    }

    /// The account keys that hold any token, of any issuer.
    public var tokenKeys: Set<[UInt8]> {
        Set(tokens.filter { $0.value.refresh != nil || !$0.value.access.isEmpty }.keys.map(\.key))
    }

    public init(universe: Universe) {
        caTargeted = Set(universe.caTargeted.map(Self.user))
        allowedAccounts = universe.allowedAccounts
        pinRequired = universe.pinRequired
    }

    /// The policy asks a PIN of the managed identity (fixed by the universe, so left out of `==`).
    public var pinRequired = false

    /// The services' name for an account: lowercased, compared by Swift's canonical equality.
    public static func user(_ upn: String) -> String { upn.lowercased() }

    static func user(_ account: AccountID) -> String { user(account.upn) }

    // MARK: - Stores

    /// Applies a committed persist: records, tokens, and what its notifications tell.
    mutating func commit(_ changes: ComplianceMachine.Changes, machine: ComplianceMachine) {
        if let app = changes.app { durableApp = app }
        for (account, record) in changes.accounts { durableAccounts[account.key] = record }
        for entry in changes.tokens {
            let key = TokenKey(key: ComplianceInvariants.storeKey(entry.account), environment: entry.environment)
            var record = tokens[key] ?? TokenRecord()
            if let refresh = entry.tokens.refreshToken {
                let issuer = Self.issuer(of: refresh.reveal())
                if issuer != entry.environment {
                    facts.strangerTokens.append("a refresh token \(entry.account.upn) got from \(issuer.map(String.init(describing:)) ?? "an unknown issuer") was cached under \(entry.environment)")
                }
                record.refresh = issuer
            }
            if let access = entry.cachedAccessToken { record.access[entry.scopes.sorted().joined(separator: " ")] = access.expiresOn }
            tokens[key] = record
        }
        for event in changes.events {
            switch event {
            case .remediationStarted(let account, _):
                facts.remediationsStarted[ComplianceInvariants.storeKey(account), default: 0] += 1
            case .compliance(let report):
                facts.reportsDelivered[ComplianceInvariants.storeKey(report.account), default: 0] += 1
            case .restartRequired(let account):
                facts.restartsOutstanding.insert(ComplianceInvariants.storeKey(account))
            case .appRestarted(let account):
                facts.restartsOutstanding.remove(ComplianceInvariants.storeKey(account))
            case .wipeFinished(let account):
                if let generation = machine.wipeGeneration(of: account) {
                    facts.wipesCommittedDone.insert(.init(key: ComplianceInvariants.storeKey(account), generation: generation))
                }
            default:
                break
            }
        }
    }

    /// The token store's answer for `account` and `scopes` of `environment`'s issuer.
    func cacheEntry(_ account: AccountID, scopes: [String], environment: TokenEnvironment) -> TokenAcquisitionStateMachine.CacheEntry {
        guard let record = tokens[TokenKey(key: ComplianceInvariants.storeKey(account), environment: environment)] else { return .empty }
        var access: TokenSet?
        if let expiry = record.access[scopes.sorted().joined(separator: " ")] {
            access = TokenSet(accessToken: SecretToken("cached-at"), expiresOn: expiry, scopes: scopes)
        }
        // The store keeps which issuer issued the refresh token; the token read back names it.
        return .init(accessToken: access, refreshToken: record.refresh.map { SecretToken("rt" + Self.tag($0)) })
    }

    /// A refresh grant to `environment`'s issuer presents `token` (the one the machine's cache
    /// read found); one another issuer issued is reported.
    mutating func presentRefreshToken(_ token: SecretToken, of account: AccountID, to environment: TokenEnvironment) {
        guard let issuer = Self.issuer(of: token.reveal()), issuer != environment else { return }
        facts.strangerTokens.append("a refresh token \(issuer) issued to \(account.upn) was presented to \(environment)")
    }

    /// The issuer a world-issued token names (`rt-N@authority|client`, empty for the app's own).
    static func issuer(of token: String) -> TokenEnvironment? {
        guard let at = token.firstIndex(of: "@") else { return nil }
        let parts = token[token.index(after: at)...].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        return TokenEnvironment(authority: parts[0].isEmpty ? nil : parts[0], clientID: parts[1].isEmpty ? nil : parts[1])
    }

    /// The suffix naming `environment` in the tokens its issuer issues.
    static func tag(_ environment: TokenEnvironment) -> String {
        "@\(environment.authority ?? "")|\(environment.clientID ?? "")"
    }

    // MARK: - The issuer

    /// The issuer's normal answer to a grant for `scopes`: a token, or 53005 when CA applies.
    /// Each issuer (``TokenEnvironment``) is a copy of the same tenant; its tokens name it.
    mutating func grantAnswer(_ account: AccountID, scopes: [String], environment: TokenEnvironment) -> TokenResponse {
        let user = Self.user(account)
        if !scopes.contains(RemediationStateMachine.mamScope), caTargeted.contains(user), !compliant.contains(user) {
            return .protectionPolicyRequired(ProtectionPolicyRequired(
                displayableID: account.upn, homeAccountID: nil, tenantID: "contoso.com", authority: "https://login.example/contoso.com",
                correlationID: nil, serverError: ServerError(status: 400, error: "unauthorized_client", errorCodes: [53005], suberror: "protection_policy_required")))
        }
        issued += 1
        return .success(TokenSet(
            accessToken: SecretToken("at-\(issued)"), refreshToken: SecretToken("rt-\(issued)" + Self.tag(environment)), expiresOn: now.advanced(by: .hours(1)), scopes: scopes,
            identity: Self.identity(of: user)))
    }

    /// Who the issuer signs in for `user` (the validated id_token's identity).
    static func identity(of user: String) -> TokenIdentity {
        TokenIdentity(subject: "oid-\(user).tenant", username: user)
    }

    // MARK: - The MAM service

    /// The policy the service sends.
    var policy: MAMPolicy {
        let allowed = allowedAccounts.map { list in AllowedAccounts(list.compactMap { Self.parsed[$0] ?? (try? AccountID($0)) }) } ?? .anyone
        // Every other version requires file encryption: the first does not, a change turns it on
        // (the managed account's plain files are then encrypted), the next lifts it again.
        return MAMPolicy(
            version: String(policyVersion), allowedAccounts: allowed,
            document: pinRequired
                ? ["fileEncryptionRequired": .bool(policyVersion.isMultiple(of: 2)), "pinRequired": true]
                : ["fileEncryptionRequired": .bool(policyVersion.isMultiple(of: 2))])
    }

    /// The universe's UPNs, parsed once.
    static let parsed: [String: AccountID] = Dictionary(
        Universe.standard.allowedAccounts.compactMap { upn in (try? AccountID(upn)).map { (upn, $0) } }, uniquingKeysWith: { first, _ in first })

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

