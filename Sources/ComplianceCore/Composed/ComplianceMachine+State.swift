import JSON

extension ComplianceMachine {
    /// One account: what is stored of it, and its live machines.
    /// Public by name only (its members are the module's), so the explorer's frontier can
    /// hold each distinct one once.
    public struct AccountState: Sendable, Hashable, Codable {
        var account: AccountID
        /// Signed in (a sign-in got its token) and not signed out or wiped since.
        var signedIn = false
        /// Tokens of the account were stored and not wiped since.
        var holdsTokens = false
        /// The object identity (``TokenIdentity/subject``) of the person who signed in under
        /// the account, from the first validated id_token; forgotten by a wipe.
        var subject: String?
        /// The last report a remediation delivered (nil before any, and after a wipe or an
        /// unenrollment: the service forgets it too).
        var compliance: ComplianceStatus?
        /// The last enroll, check-in or unenroll status the app was told.
        var lastEnrollmentStatus: EnrollmentStatus?
        /// The token request a remediation of the account retries at its end.
        var retryScopes: [String]?
        /// The MAM service's id for the account's enrollment, while enrolled.
        var enrollmentID: String?
        /// The policy an enroll answer carried that a remediation has not applied yet.
        var offeredPolicy: MAMPolicy?
        /// The policy in force for the account (nil: none applied, so the next one is a first
        /// policy and restarts the app).
        var policy: MAMPolicy?
        var enrollment: EnrollmentStateMachine
        /// The enrollment snapshot last stored.
        var enrollmentSnapshot: EnrollmentStateMachine.Snapshot
        var wipe: SelectiveWipeStateMachine
        /// The wipe snapshot last stored.
        var wipeSnapshot: SelectiveWipeStateMachine.Snapshot

        init(account: AccountID) {
            self.account = account
            enrollment = EnrollmentStateMachine(account: account)
            enrollmentSnapshot = enrollment.snapshot
            wipe = SelectiveWipeStateMachine(account: account)
            wipeSnapshot = wipe.snapshot
        }
    }

    /// What a step of I/O is for, so its result reaches the right machine.
    enum Intent: Sendable, Hashable, Codable {
        case remediationEnroll(AccountID)
        case remediationPolicy(AccountID)
        case remediationReport(AccountID)
        case registrationEnroll(AccountID)
        case checkIn(AccountID)
        case unenroll(AccountID)

        /// The notification its answer ends in (invariant 6), if any.
        var notificationKind: ComplianceInvariants.NotificationKind? {
            switch self {
            case .remediationEnroll, .remediationPolicy, .registrationEnroll: .enrollment
            case .checkIn: .policy
            case .unenroll: .unenroll
            case .remediationReport: nil
            }
        }

        var account: AccountID {
            switch self {
            case .remediationEnroll(let account), .remediationPolicy(let account), .remediationReport(let account),
                 .registrationEnroll(let account), .checkIn(let account), .unenroll(let account):
                account
            }
        }
    }

    /// The wipe step an I/O action runs.
    enum WipeStep: Sendable, Hashable, Codable {
        case removeTokens, runAppHook, removeVaultFiles
    }

    /// What an outstanding I/O step answers.
    enum Outstanding: Sendable, Hashable, Codable {
        /// A step of the token request with this id.
        case token(StepID)
        /// A MAM call, sent with a token of this environment (its service is held on its own).
        case mam(Intent, TokenEnvironment)
        /// A wipe step of the account.
        case wipe(AccountID, WipeStep)
        /// The re-protection of the managed account's plain files.
        case reprotect(AccountID)
        /// A question to the app (its identity hook), and what waits for its answer.
        case appQuestion(PendingAppQuestion)
    }

    /// Who a token request's result goes to.
    enum TokenPurpose: Sendable, Hashable, Codable {
        /// A caller's token request (a sign-in's, or an app's token call).
        case caller(Ticket, CallerMode, remediate: Bool)
        /// The remediation's MAM-service token (its first step).
        case remediationMAMToken(AccountID)
        /// The remediation's retry of the original request.
        case remediationRetry(AccountID)
        /// The deregistration's MAM-service token (before anything is removed).
        case unenrollToken(AccountID)
        /// The silent MAM-service token a MAM call is sent with.
        case mamCall(Intent)
    }

    /// Which command a caller's token request serves.
    enum CallerMode: Sendable, Hashable, Codable {
        case token, signIn
    }

    /// A token request in flight.
    struct TokenRequest: Sendable, Hashable, Codable {
        var machine: TokenAcquisitionStateMachine
        var purpose: TokenPurpose
        /// The caller whose user answers a sign-in page, if interaction is allowed.
        var interaction: Ticket?
        /// The issuer and client in force when the request started: all its tokens are theirs.
        var environment: TokenEnvironment
    }

    /// A caller waiting for an account to settle.
    enum Waiter: Sendable, Hashable, Codable {
        /// A sign-in whose token came back: answered once its registration settled.
        case signIn(Ticket, TokenAnswer)
        /// A sign-in whose remediation failed: answered (not signed in) once what the failure
        /// set off (a wipe, an unenrollment) settled.
        case signInFailed(Ticket, TokenAnswer)
        /// A deregistration: answered once the account is removed (and wiped, when asked).
        case deregister(Ticket, AccountID, wipe: Bool)
        /// A fired timer: answered once its work settled.
        case timer(Ticket, AccountID)

        var ticket: Ticket {
            switch self {
            case .signIn(let ticket, _), .signInFailed(let ticket, _), .deregister(let ticket, _, _), .timer(let ticket, _): ticket
            }
        }

        var account: AccountID {
            switch self {
            case .signIn(_, let answer), .signInFailed(_, let answer): answer.account
            case .deregister(_, let account, _), .timer(_, let account): account
            }
        }
    }

    /// A caller waiting for a remediation's report.
    enum RemediationWaiter: Sendable, Hashable, Codable {
        /// `remediate`: the report itself.
        case command(Ticket)
        /// A token request (or sign-in) that met 53005: its answer, with the report.
        case token(Ticket, CallerMode, scopes: [String], failure: TokenAcquisitionFailure)

        var ticket: Ticket {
            switch self {
            case .command(let ticket), .token(let ticket, _, _, _): ticket
            }
        }
    }

    /// What lives only in memory (lost, like the process's requests, on a restart). Public as
    /// an opaque part (``Parts``); its fields are the module's.
    public struct Volatile: Sendable, Hashable, Codable {
        var nextStep: UInt64 = 1
        /// Token requests in flight, by request id.
        var tokenRequests: [StepID: TokenRequest] = [:]
        /// I/O steps in flight.
        var outstanding: [StepID: Outstanding] = [:]
        /// The step each intent waits for now (an older step's result is late).
        var currentStep: [Intent: StepID] = [:]
        /// Intents whose MAM call is being sent again after a claims challenge, with a token
        /// asked for with its claims: a second challenge for the call is not retried.
        var claimsRetried: Set<Intent> = []
        /// The step each account's wipe waits for now.
        var wipeStep: [AccountID: StepID] = [:]
        /// The token request each purpose waits for now.
        var currentRequest: [TokenPurpose: StepID] = [:]
        /// Wipe steps the disk refused, with why: retried on the next start or deregistration.
        var stalledWipes: [AccountID: String] = [:]
        var waiters: [Waiter] = []
        var remediationWaiters: [AccountID: [RemediationWaiter]] = [:]
        /// The caller whose user answers a remediation's sign-in pages.
        var remediationInteraction: [AccountID: Ticket] = [:]
        /// Commands of the current step, released after its persist.
        var held: [Action] = []
        /// Commands to take.
        var ready: [Action] = []
        var awaitingPersist = false
        /// The managed account's plain files (if any) are to be encrypted at the end of this
        /// step: a policy came into force, or the process started (``Reprotection``).
        var reprotection = Reprotection.idle
        /// Services that asked to wait (`Retry-After`): requests to them are answered by the
        /// machine, unsent, until then.
        var holds = RetryAfterHolds()
        /// Replies held while a re-protection runs: a caller's answer comes once the files its
        /// step's policy requires encrypted are (released with the re-protection's result).
        var parkedReplies: [Action] = []
        /// What the current step changed.
        var appDirty = false
        var dirtyAccounts: Set<AccountID> = []
        /// Accounts whose machines the step called (their snapshots are compared at its end).
        var touched: Set<AccountID> = []
        /// What the last reconcile that settled saw of what its per-account rules depend on
        /// besides the accounts: caches, derived from the state (so left out of `==`).
        var reconcileEverything = true
        /// True from a launch's ``ComplianceMachine/resumed(now:)`` until its
        /// ``ComplianceMachine/launchFinished(resumed:clock:now:)``: the app has not finished
        /// launching, so a first policy's restart is the SDK's, not the app's (LaunchSettings).
        var launching = false
        var reconciledList: AllowedAccounts = .anyone
        var reconciledHolder: AccountID?
        /// The unsettled accounts and the timer queue, kept from the accounts each step
        /// touched (caches derived from the state: left out of `==`).
        var indexes = AccountIndexes()
        var events: [ComplianceEvent] = []
        var tokens: [TokenWrite] = []
        /// The app's identities when the current step began: what a failed commit of the step
        /// restores (``ComplianceMachine/reloadedAfterFailedCommit(_:)``). Overwritten by every
        /// step before it can be read, so it tells no two states at rest apart (left out of `==`).
        var identitiesBeforeStep = AppIdentities()

        public static func == (lhs: Volatile, rhs: Volatile) -> Bool {
            lhs.nextStep == rhs.nextStep && lhs.tokenRequests == rhs.tokenRequests && lhs.outstanding == rhs.outstanding
                && lhs.currentStep == rhs.currentStep && lhs.claimsRetried == rhs.claimsRetried && lhs.wipeStep == rhs.wipeStep && lhs.currentRequest == rhs.currentRequest
                && lhs.stalledWipes == rhs.stalledWipes && lhs.waiters == rhs.waiters && lhs.remediationWaiters == rhs.remediationWaiters
                && lhs.remediationInteraction == rhs.remediationInteraction && lhs.held == rhs.held && lhs.ready == rhs.ready
                && lhs.awaitingPersist == rhs.awaitingPersist && lhs.reprotection == rhs.reprotection && lhs.holds == rhs.holds
                && lhs.parkedReplies == rhs.parkedReplies && lhs.appDirty == rhs.appDirty && lhs.dirtyAccounts == rhs.dirtyAccounts
                && lhs.touched == rhs.touched && lhs.launching == rhs.launching
                && lhs.events == rhs.events && lhs.tokens.count == rhs.tokens.count
                && zip(lhs.tokens, rhs.tokens).allSatisfy {
                    $0.account == $1.account && $0.scopes == $1.scopes && $0.tokens == $1.tokens && $0.environment == $1.environment
                }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(nextStep)
            hasher.combine(tokenRequests)
            hasher.combine(outstanding)
            hasher.combine(currentStep)
            hasher.combine(claimsRetried)
            hasher.combine(wipeStep)
            hasher.combine(currentRequest)
            hasher.combine(stalledWipes)
            hasher.combine(waiters)
            hasher.combine(remediationWaiters)
            hasher.combine(remediationInteraction)
            hasher.combine(held)
            hasher.combine(ready)
            hasher.combine(awaitingPersist)
            hasher.combine(reprotection)
            hasher.combine(holds)
            hasher.combine(parkedReplies)
            hasher.combine(launching)
            hasher.combine(events)
            hasher.combine(tokens.count)
        }
    }
}
