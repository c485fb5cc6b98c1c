import ComplianceCore

/// One node of the exploration: the machine, the world, the I/O in flight, the callers
/// waiting, and what is left of the path's budget. The explorer plays the Orchestrator: it
/// takes the machine's actions in order, commits persists to the world, answers I/O with the
/// answer class the event chose, and on a failed persist or a crash reloads the machine from
/// the committed records, as the Engine does.
public struct ExploreState: Sendable, Hashable, Codable {
    public var machine: ComplianceMachine
    public var world: World
    /// I/O actions taken and not yet answered, in the order they were taken.
    public var pending: [ComplianceMachine.Action] = []
    /// Callers waiting for a reply, with what they asked.
    public var openTickets: [ComplianceMachine.Ticket: Command] = [:]
    public var nextTicket: UInt64 = 1
    public var budget: Universe.Budget
    /// The next persist fails (a storage failure the path chose).
    public var failNextPersist = false
    /// The script the path follows (index into the universe's scripts; nil before it chose)
    /// and how many of its steps were issued.
    public var script: Int?
    public var scriptPosition = 0
    /// The account whose restart the hook is being asked about (its answer is an event).
    public var restartAsked: AccountID?
    /// What the current transition's drain took (empty between transitions).
    public var drainLog = DrainLog()
    /// The process started (after a crash) and the work it resumed is under way. As
    /// `Engine.start()` does, it serves no command, timer or restart report until that work's
    /// I/O is answered; then the launch finishes (``ComplianceMachine/launchFinished(resumed:clock:now:)``:
    /// `daemonStarted`, and `policyAbsent` when no policy is in force and the profile asks for one).
    public var launching = false
    /// How much interrupted work the launch under way resumed (0 at rest).
    public var launchResumed = 0

    /// The app's first start, as `Engine.start()` on an empty store: nothing to resume, then
    /// the launch finishes.
    public init(universe: Universe) {
        machine = ComplianceMachine(configuration: universe.configuration)
        world = World(universe: universe)
        budget = universe.budget
        launchResumed = machine.resumableWork
        machine.resumed(now: world.now)
        launching = true
        drain()
        finishLaunchWhenResumed()
        drainLog = DrainLog()
    }
}

/// What a caller asks (by spelling name).
public enum Command: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Sign in with the password (interaction allowed).
    case signIn(String)
    /// A silent token for the app's API, remediating on 53005.
    case token(String)
    /// An interactive remediation (remediateComplianceForIdentity).
    case remediate(String)
    case deregister(String, wipe: Bool)
    /// Store a managed file (not a machine call: the Orchestrator asks the machine whether it may).
    case putData(String)
    /// Read the account's file (not a machine call: the Orchestrator asks the machine whether it may).
    case readData(String)
    /// `setUIPolicyIdentity` to the account (nil: no user).
    case switchUI(String?)
    /// `setProcessIdentity` to the account (nil: no user): the identity file tasks run under.
    case switchProcess(String?)
    /// The app overrides its authority (`aadAuthorityUriOverride`) with this URL; nil clears it.
    case overrideAuthority(String?)
    /// `setUIPolicyIdentity` to the account, and the user cancels its PIN if one is asked.
    case switchUICancelled(String)
    /// The SDK enrolled the account on its own and asks the app to add it (`addIdentity`).
    case sdkEnrolls(String)

    /// Whether the caller carries credentials (its person answers the issuer's sign-in page).
    public var carriesCredentials: Bool {
        if case .signIn = self { return true }
        return false
    }

    /// The spelling the command names ("" for a switch to no user or an override).
    public var spelling: String {
        switch self {
        case .signIn(let name), .token(let name), .remediate(let name), .deregister(let name, _), .putData(let name), .readData(let name),
             .switchUICancelled(let name), .sdkEnrolls(let name): name
        case .switchUI(let name), .switchProcess(let name): name ?? ""
        case .overrideAuthority: ""
        }
    }

    public var description: String {
        switch self {
        case .signIn(let name): "signIn \(name)"
        case .token(let name): "token \(name)"
        case .remediate(let name): "remediate \(name)"
        case .deregister(let name, let wipe): "deregister \(name)\(wipe ? " --wipe" : "")"
        case .putData(let name): "putData \(name)"
        case .readData(let name): "readData \(name)"
        case .switchUI(let name): "switchUI \(name ?? "no user")"
        case .switchProcess(let name): "switchProcess \(name ?? "no user")"
        case .overrideAuthority(let url): "overrideAuthority \(url ?? "cleared")"
        case .switchUICancelled(let name): "switchUI \(name), PIN cancelled"
        case .sdkEnrolls(let name): "sdkEnrolls \(name)"
        }
    }
}

/// A change an administrator makes at the services.
public enum AdminChange: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The allowed list shrinks to alice: josé is excluded.
    case excludeJose
    /// A selective wipe waits for the account's next check-in.
    case queueWipe(String)
    /// The account becomes targeted for App Protection CA.
    case targetCA(String)
    /// The MAM policy is unassigned.
    case unassignPolicy
    /// The policy changes (new version, same allowed list).
    case changePolicy

    public var description: String {
        switch self {
        case .excludeJose: "the allowed list shrinks to alice"
        case .queueWipe(let name): "the admin queues a wipe of \(name)"
        case .targetCA(let name): "\(name) is targeted for CA"
        case .unassignPolicy: "the MAM policy is unassigned"
        case .changePolicy: "the MAM policy changes"
        }
    }
}

/// How an I/O step is answered.
public enum Answer: Sendable, Hashable, CustomStringConvertible, Codable {
    /// What the service (or the store) normally answers in this world.
    case normal
    /// The app's wipe hook answers (`true`: the app removed the data).
    case hook(removedData: Bool)
    /// The app's wipe hook gives no answer (it counts as NO, as the Engine takes it).
    case hookFailed(HookFailure)
    /// A failure class.
    case failure(Failure)

    public enum Failure: Sendable, Hashable, CustomStringConvertible, Codable {
        /// AADSTS53009 (the app lacks protapp).
        case capabilityMissing
        /// invalid_grant: sign in again.
        case interactionRequired
        /// HTTP 503 from the issuer.
        case issuerUnavailable
        /// No answer from the issuer.
        case issuerUnreachable
        /// The user cancels the sign-in page.
        case userCancelled
        /// The MAM service answers 5xx (201 InternalError).
        case mamServerError
        /// No answer from the MAM service (205 / 212).
        case mamUnreachable
        /// An unusable MAM answer (206 ParsingFailure).
        case mamMalformed
        /// The disk refuses a wipe step.
        case diskFull
        /// The issuer grants the token but declines the app's scope (`scope` lists `openid` only).
        case scopesDeclined
        /// The issuer's authorize endpoint refuses the sign-in as configured (an unknown client).
        case issuerMisconfigured
        /// The person at the sign-in page signs in as someone else (mallory).
        case anotherPerson
        /// A refresh answers for another person under the account's UPN (the UPN was given
        /// to someone else: a new object identity).
        case upnReassigned
        /// The person types a wrong password at the sign-in page (AADSTS50126).
        case wrongPassword
        /// The MAM service refuses the token with a continuous-access-evaluation claims
        /// challenge (401 `insufficient_claims`): the user's sessions were revoked.
        case claimsChallenge

        public var description: String {
            switch self {
            case .capabilityMissing: "53009"
            case .interactionRequired: "invalid_grant"
            case .issuerUnavailable: "issuer 503"
            case .issuerUnreachable: "issuer unreachable"
            case .userCancelled: "user cancels"
            case .mamServerError: "MAM 503"
            case .mamUnreachable: "MAM unreachable"
            case .mamMalformed: "MAM malformed"
            case .diskFull: "disk full"
            case .scopesDeclined: "scope declined"
            case .issuerMisconfigured: "authorize refused"
            case .anotherPerson: "signed in as mallory"
            case .upnReassigned: "UPN reassigned"
            case .wrongPassword: "wrong password"
            case .claimsChallenge: "MAM claims challenge"
            }
        }
    }

    public var description: String {
        switch self {
        case .normal: "normal"
        case .hook(let removed): removed ? "hook exit 0" : "hook exit 1"
        case .hookFailed(let failure): "hook \(failure)"
        case .failure(let failure): "\(failure)"
        }
    }
}

/// How an app hook (wipe or restart) fails to answer: the Engine takes it as NO and tells how it ended.
public enum HookFailure: Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
    /// It outlived its time limit and was killed.
    case timedOut
    /// A signal ended it (it crashed).
    case crashed

    /// How it ended, as the Engine words it (`HookOutcome`).
    public var outcome: String {
        switch self {
        case .timedOut: "timed out and was killed"
        case .crashed: "killed by signal 11"
        }
    }

    public var description: String {
        switch self {
        case .timedOut: "times out"
        case .crashed: "crashes"
        }
    }
}

/// One transition of the exploration.
public enum ExploreEvent: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The path follows this script of the universe.
    case choose(Int, String)
    case command(Command)
    case admin(AdminChange)
    /// The pending I/O step is answered.
    case complete(ComplianceMachine.StepID, Answer)
    /// The earliest due timer fires (the clock moves to it).
    case timer
    /// The process is killed; it starts again from the committed records.
    case crash
    /// The next persist fails (the disk is full).
    case storageFails
    /// The app's restart hook answers `restartApplication` (YES: the app restarts itself).
    case restartAnswered(appHandlesRestart: Bool)
    /// The app's restart hook gives no answer (NO: the SDK restarts the app).
    case restartHookFailed(HookFailure)
    /// The app reports it restarted (the restart it owed).
    case appReportsRestart

    public var description: String {
        switch self {
        case .choose(_, let name): "script: \(name)"
        case .command(let command): command.description
        case .admin(let change): change.description
        case .complete(let step, let answer): "answer \(step): \(answer)"
        case .timer: "the next timer fires"
        case .crash: "crash (kill -9) and restart"
        case .storageFails: "the next commit fails"
        case .restartAnswered(let yes): "the restart hook answers \(yes ? "YES" : "NO")"
        case .restartHookFailed(let failure): "the restart hook \(failure)"
        case .appReportsRestart: "the app reports its restart"
        }
    }
}
