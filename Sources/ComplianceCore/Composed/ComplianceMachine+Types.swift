import JSON

extension ComplianceMachine {
    /// What the app asks of the machine and what answers it: the Orchestrator hands out one
    /// per call, and gets exactly one ``Reply`` for it.
    public struct Ticket: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
        public let value: UInt64
        public init(_ value: UInt64) { self.value = value }
        public static func < (lhs: Ticket, rhs: Ticket) -> Bool { lhs.value < rhs.value }
        public var description: String { "ticket \(value)" }
    }

    /// The step an I/O action answers: its result comes back with this id, and a result for a
    /// step the machine no longer waits for is ignored.
    public struct StepID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
        public let value: UInt64
        public init(_ value: UInt64) { self.value = value }
        public static func < (lhs: StepID, rhs: StepID) -> Bool { lhs.value < rhs.value }
        public var description: String { "step \(value)" }
    }

    /// The machine's fixed settings (from the app profile and the daemon's options).
    public struct Configuration: Sendable, Hashable, Codable {
        /// The client capabilities every grant declares (`["protapp"]`).
        public var capabilities: [String]
        /// The scopes of a sign-in that names none, and of a remediation's retry without a request.
        public var signInScopes: [String]
        /// Whether the app has a wipe hook (`wipeDataForAccount`).
        public var hasWipeHook: Bool
        /// Whether the app has a restart hook (`restartApplication`): a first policy's restart
        /// is then asked of it (``Action/restartApp(_:)`` is a job whose answer is
        /// ``ComplianceMachine/restartApplicationAnswered(_:now:)``); without one the SDK
        /// restarts the app at once (``ComplianceHost/drain()``).
        public var hasRestartHook: Bool
        /// Whether a MAM service is configured. Without one (an issuer that is not Entra and no
        /// MAM URL) sign-ins are not registered and a 53005 answer is not remediated: the token
        /// request fails with it, and a remediation asked for reports NotCompliant saying why.
        public var mamService: Bool
        /// The profile's launch settings (`AutoEnrollOnLaunch`, `MAMPolicyRequired`, `MAMPolicyWarnAbsent`).
        public var launch: LaunchSettings
        /// The profile's `MultiIdentity`: the app sets its identities itself (unset at launch);
        /// otherwise the process identity is the enrolled user (``AppIdentities``).
        public var multiIdentity: Bool
        /// Whether the app has an identity hook (`identitySwitchRequired`, `addIdentity`): the
        /// SDK's questions about identities are then asked of it (``Action/askApp(_:_:)``, answered
        /// `.appAnswered`); without one the daemon, playing the app, answers Success at once
        /// (ComplianceMachine+AppQuestions.swift).
        public var hasIdentityHook: Bool = false

        public init(
            capabilities: [String] = [ComplianceCore.protectionCapability], signInScopes: [String] = ["openid", "profile", "offline_access"],
            hasWipeHook: Bool = false, hasRestartHook: Bool = false, mamService: Bool = true, launch: LaunchSettings = LaunchSettings(),
            multiIdentity: Bool = false
        ) {
            self.capabilities = capabilities
            self.signInScopes = signInScopes
            self.hasWipeHook = hasWipeHook
            self.hasRestartHook = hasRestartHook
            self.mamService = mamService
            self.launch = launch
            self.multiIdentity = multiIdentity
        }
    }

    /// A call to the MAM service, with the MAM-resource token it is sent with.
    public enum MAMRequest: Sendable, Hashable, CustomStringConvertible, Codable {
        case enroll(AccountID, token: SecretToken)
        case checkIn(AccountID, enrollmentID: String, policyVersion: String?, token: SecretToken)
        case unenroll(AccountID, enrollmentID: String, token: SecretToken)
        case reportCompliance(AccountID, enrollmentID: String, policyVersion: String?, token: SecretToken)

        public var account: AccountID {
            switch self {
            case .enroll(let account, _), .checkIn(let account, _, _, _), .unenroll(let account, _, _), .reportCompliance(let account, _, _, _): account
            }
        }

        /// The MAM-resource token the call is sent with.
        public var token: SecretToken {
            switch self {
            case .enroll(_, let token), .checkIn(_, _, _, let token), .unenroll(_, _, let token), .reportCompliance(_, _, _, let token): token
            }
        }

        public var description: String {
            switch self {
            case .enroll(let account, _): "enroll \(account.upn)"
            case .checkIn(let account, let id, let version, _): "checkIn \(account.upn) \(id) policy \(version ?? "none")"
            case .unenroll(let account, let id, _): "unenroll \(account.upn) \(id)"
            case .reportCompliance(let account, let id, let version, _): "reportCompliance \(account.upn) \(id) policy \(version ?? "none")"
            }
        }
    }

    /// Commands for the Orchestrator. Take them with ``nextAction()`` until it returns
    /// `.none`; a `.persist` always comes before the commands of the step that asked for it.
    public enum Action: Sendable, Hashable, CustomStringConvertible, Codable {
        /// Commit these changes in one transaction, then call ``persisted()`` (or, when the
        /// store fails, reload the machine from the store: ``init(restoring:configuration:)``).
        case persist(Changes)
        /// Read the token cache of `environment` (its issuer and client only); answer `.cache(entry)`.
        case readTokenCache(StepID, AccountID, scopes: [String], environment: TokenEnvironment)
        /// Send a grant to `environment`'s issuer (a refresh grant with that environment's
        /// refresh token); `interaction` names the caller whose user answers a sign-in page.
        /// Answer `.grant(…)`.
        case requestToken(
            StepID, TokenAcquisitionStateMachine.Grant, AccountID, scopes: [String], claims: String?, interaction: Ticket?,
            environment: TokenEnvironment)
        /// Delete the account's refresh token of `environment` (no other issuer's); answer `.done`.
        case removeRefreshToken(StepID, AccountID, environment: TokenEnvironment)
        /// Call the MAM service with a token `environment`'s issuer issued (the MAM service of
        /// that issuer, as the app's client there); answer `.mam(…)`.
        case callMAM(StepID, MAMRequest, environment: TokenEnvironment)
        /// Wipe steps: delete every token of the account; delete its vault files; run the app's
        /// wipe hook (answer `.hook(…)`). Answer `.done`, or `.failed` when the disk refuses.
        case removeTokens(StepID, AccountID)
        case removeVaultFiles(StepID, AccountID)
        case runAppHook(StepID, AccountID)
        /// Encrypt the managed account's files stored plain (its policy now requires
        /// encryption: ``DataProtectionPolicy/filesToEncrypt(_:)``), each rewritten atomically;
        /// answer `.encrypted(files:)` with the names encrypted, or `.failed` when the disk refuses.
        case encryptPlainFiles(StepID, AccountID)
        /// The first policy is in force: the app restarts. Without a restart hook the SDK
        /// restarts it: call ``appRestarted(now:)``. With one, ask the app (`restartApplication`,
        /// its save-state point) and call ``restartApplicationAnswered(_:now:)``.
        case restartApp(AccountID)
        /// Ask the app (its identity hook) an SDK question about identities
        /// (`identitySwitchRequired`, `addIdentity`); answer `.appAnswered(…)`.
        case askApp(StepID, AppIdentityQuestion)
        /// The one answer to a caller's ticket.
        case reply(Ticket, Reply)
        case none

        public var description: String {
            switch self {
            case .persist(let changes): "persist(\(changes))"
            case .readTokenCache(let step, let account, let scopes, let environment):
                "readTokenCache(\(step), \(account.upn), \(scopes), \(environment))"
            case .requestToken(let step, let grant, let account, let scopes, _, let interaction, let environment):
                "requestToken(\(step), \(grant.name), \(account.upn), \(scopes)\(interaction.map { ", interactive for \($0)" } ?? ""), \(environment))"
            case .removeRefreshToken(let step, let account, let environment): "removeRefreshToken(\(step), \(account.upn), \(environment))"
            case .callMAM(let step, let request, let environment): "callMAM(\(step), \(request), \(environment))"
            case .removeTokens(let step, let account): "removeTokens(\(step), \(account.upn))"
            case .removeVaultFiles(let step, let account): "removeVaultFiles(\(step), \(account.upn))"
            case .runAppHook(let step, let account): "runAppHook(\(step), \(account.upn))"
            case .encryptPlainFiles(let step, let account): "encryptPlainFiles(\(step), \(account.upn))"
            case .restartApp(let account): "restartApp(\(account.upn))"
            case .askApp(let step, let question): "askApp(\(step), \(question))"
            case .reply(let ticket, let reply): "reply(\(ticket), \(reply))"
            case .none: "none"
            }
        }
    }

    /// Tokens a grant answered, to store for `account` under `scopes` in `environment`'s cache
    /// (its issuer and client only).
    public struct TokenWrite: Sendable, Hashable, Codable {
        public var account: AccountID
        /// The scopes the tokens are kept under: those the issuer granted of the request's.
        public var scopes: [String]
        public var tokens: TokenSet
        public var environment: TokenEnvironment

        public init(_ account: AccountID, _ scopes: [String], _ tokens: TokenSet, _ environment: TokenEnvironment) {
            self.account = account
            self.scopes = scopes
            self.tokens = tokens
            self.environment = environment
        }

        /// The access token to cache: none when the issuer granted none of the scopes asked
        /// (no scopes, no cache entry: the refresh token alone is kept).
        public var cachedAccessToken: TokenSet? { scopes.isEmpty ? nil : tokens }
    }

    /// What one step changed, for one transaction.
    public struct Changes: Sendable, Hashable, CustomStringConvertible, Codable {
        /// The app record (remediation and allowed-accounts machines), when it changed.
        public var app: JSONValue?
        /// The records of the accounts that changed, by account.
        public var accounts: [AccountID: JSONValue] = [:]
        /// Tokens to store (a grant's answer), in order.
        public var tokens: [TokenWrite] = []
        /// Observer notifications, in order.
        public var events: [ComplianceEvent] = []

        public init() {}

        public var isEmpty: Bool { app == nil && accounts.isEmpty && tokens.isEmpty && events.isEmpty }

        public static func == (lhs: Changes, rhs: Changes) -> Bool {
            lhs.app == rhs.app && lhs.accounts == rhs.accounts && lhs.events == rhs.events
                && lhs.tokens.map { [$0.account.key, $0.scopes.joined(separator: " ")] } == rhs.tokens.map { [$0.account.key, $0.scopes.joined(separator: " ")] }
                && lhs.tokens.map(\.tokens) == rhs.tokens.map(\.tokens)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(app)
            hasher.combine(accounts)
            hasher.combine(events)
            for entry in tokens {
                hasher.combine(entry.account)
                hasher.combine(entry.scopes)
                hasher.combine(entry.tokens)
            }
        }

        public var description: String {
            var parts: [String] = []
            if app != nil { parts.append("app") }
            if !accounts.isEmpty { parts.append("accounts \(accounts.keys.sorted().map(\.upn))") }
            if !tokens.isEmpty { parts.append("tokens for \(tokens.map(\.account.upn))") }
            if !events.isEmpty { parts.append("\(events.count) events") }
            return parts.joined(separator: ", ")
        }
    }

    /// What an I/O action's step came back with.
    public enum StepResult: Sendable, Hashable, Codable {
        /// The token cache's answer to `.readTokenCache`.
        case cache(TokenAcquisitionStateMachine.CacheEntry)
        /// A grant's end.
        case grant(GrantResult)
        /// The MAM service's answer, or why there is none.
        case mam(MAMResult)
        /// The MAM service failed (429 or 5xx) and asked to wait (`Retry-After`): `result` is
        /// the failure; calls to that service are answered unsent until the wait has passed.
        case mamAskedToWait(MAMResult, RetryAfterHolds.Request)
        /// The app's wipe hook ended: `removedData` is its answer (exit status 0).
        case hook(removedData: Bool, outcome: String)
        /// The plain files `.encryptPlainFiles` encrypted (none: there were none).
        case encrypted(files: [String])
        /// The app's answer to `.askApp` (its identity hook: exit status 0 is Success).
        case appAnswered(AppIdentityAnswer)
        /// A store, vault or token removal step succeeded.
        case done
        /// A store, vault or token removal step failed (the disk refused); the step stays
        /// journaled and runs again later.
        case failed(String)
    }

    /// How a grant ended.
    public enum GrantResult: Sendable, Hashable, Codable {
        /// The token endpoint answered (classified).
        case response(TokenResponse)
        /// No answer (connection refused, reset, timeout).
        case transportFailed(String)
        /// The user cancelled the sign-in page (or denied access, `access_denied`).
        case cancelled
        /// The issuer's sign-in cannot work as configured; the text quotes its answer.
        case misconfigured(String)
    }

    /// How a MAM call ended.
    public enum MAMResult: Sendable, Hashable, Codable {
        /// Enrolled (100, 103 or 208): the enrollment id and the policy the answer carries.
        case enrolled(EnrollmentStatus, enrollmentID: String, policy: MAMPolicy?)
        /// A check-in's answer (100 with the new policy, 101, 102, 103).
        case checkedIn(EnrollmentStateMachine.CheckInOutcome)
        /// The service confirmed the unenrollment (104).
        case unenrolled
        /// The service accepted the compliance report.
        case complianceReported
        /// The call failed: the status it maps to (201, 205, 206, 212, 213, 225, …) and why.
        case failed(EnrollmentStatus, detail: String?)
        /// The service refused the token with a continuous-access-evaluation claims challenge
        /// (HTTP 401 `insufficient_claims`): the claims JSON text it demands. A `cp1` app asks
        /// the issuer again with them, once per call; otherwise it is 203 AuthRequired.
        case claimsChallenge(claims: String, detail: String?)
    }

    /// The end of a token request, as the app sees it.
    public struct TokenAnswer: Sendable, Hashable, Codable {
        public var account: AccountID
        public var scopes: [String]
        /// Compliant when tokens came back; otherwise the status the failure maps to.
        public var status: ComplianceStatus
        public var tokens: TokenSet?
        /// Why no token came back (nil on success).
        public var failure: TokenAcquisitionFailure?
        /// The remediation's report, when the request needed one.
        public var report: ComplianceStatusReport?
        public var remediated: Bool
        /// The tokens came from the cache (no grant was sent); false when they came from the
        /// issuer or none came.
        public var fromCache = false

        public init(
            account: AccountID, scopes: [String], status: ComplianceStatus, tokens: TokenSet?, failure: TokenAcquisitionFailure?,
            report: ComplianceStatusReport?, remediated: Bool
        ) {
            self.account = account
            self.scopes = scopes
            self.status = status
            self.tokens = tokens
            self.failure = failure
            self.report = report
            self.remediated = remediated
        }
    }

    /// The one answer to a ticket.
    public enum Reply: Sendable, Hashable, CustomStringConvertible, Codable {
        /// A token request's end.
        case token(TokenAnswer)
        /// A sign-in's end: whether the account is signed in, and its token request.
        case signIn(signedIn: Bool, TokenAnswer)
        /// A remediation's one report (tokens only with Compliant).
        case remediation(ComplianceStatusReport, tokens: TokenSet?)
        /// A deregistration's end: the unenroll status and whether the account was wiped.
        case deregistered(enrollmentStatus: EnrollmentStatus?, wiped: Bool)
        /// A fired timer's work is done.
        case settled
        /// A `setUIPolicyIdentity` (or `setProcessIdentity`) answer.
        case identity(IdentitySwitch)
        /// The runtime settings overrides now in force.
        case settings(SettingsOverrides)
        /// The call was refused or could not be carried out.
        case refused(Refusal)

        public var description: String {
            switch self {
            case .token(let answer): "token(\(answer.account.upn) \(answer.status))"
            case .signIn(let signedIn, let answer): "signIn(\(answer.account.upn) signedIn \(signedIn) \(answer.status))"
            case .remediation(let report, _): "remediation(\(report.account.upn) \(report.status))"
            case .deregistered(let status, let wiped): "deregistered(\(status.map { "\($0.rawValue)" } ?? "none"), wiped \(wiped))"
            case .settled: "settled"
            case .settings(let overrides): "settings(\(overrides.isEmpty ? "no overrides" : "overridden"))"
            case .identity(let outcome): "identity(\(outcome.identity?.upn ?? "no user") \(outcome.result.rawValue))"
            case .refused(let refusal): "refused(\(refusal.code): \(refusal.message))"
            }
        }

        /// True for an answer that says the call succeeded (a refusal does not).
        public var isSuccess: Bool {
            if case .refused = self { return false }
            return true
        }
    }

    /// Why a call was refused.
    public struct Refusal: Sendable, Hashable, Codable {
        public enum Code: String, Sendable, Hashable, Codable {
            /// The allowed accounts do not include the account (or it is being removed).
            case signInRefused = "sign_in_refused"
            /// The account is being wiped or deregistered.
            case conflict
            /// No account of that name has been seen.
            case unknownAccount = "unknown_account"
            /// The store or the vault refused a write; nothing the call asked for is committed.
            case storageUnavailable = "storage_unavailable"
            /// `MAMPolicyRequired`: no app protection policy is in force yet, so the app gets no
            /// token and no managed data (sign-in and remediation, which bring one, still run).
            case policyRequired = "policy_required"
            /// The identity cannot be put in force: it leaves, the allowed accounts exclude it,
            /// or another account of the organization is the one managed identity.
            case identityNotAllowed = "identity_not_allowed"
            /// Managed data (a file or a buffer) asked for under a process identity other than its owner.
            case identityMismatch = "identity_mismatch"
            /// The app owes a restart (its `restartApplication` answered YES) and has not
            /// reported it: no token is served until it does.
            case restartPending = "restart_pending"
            /// A sign-in without an account, and no managed user to sign in (the SDK would
            /// prompt for a user name): name the account.
            case accountRequired = "account_required"
            /// The request cannot be asked as given (a silent request that carries
            /// credentials, a token request naming no scope).
            case badRequest = "bad_request"
        }

        public var code: Code
        /// The account the call named (nil when the refusal is not about one account).
        public var account: AccountID?
        public var message: String

        public init(_ code: Code, _ account: AccountID?, _ message: String) {
            self.code = code
            self.account = account
            self.message = message
        }

        /// `unknown_account`: the machine has no record of `account`.
        public static func unknown(_ account: AccountID) -> Refusal {
            Refusal(.unknownAccount, account, "no account \(account.upn) has signed in to this app")
        }
    }
}

/// A refusal is the error of a decision that may refuse (``ComplianceMachine/bufferProtection(for:)``).
extension ComplianceMachine.Refusal: Error {}
