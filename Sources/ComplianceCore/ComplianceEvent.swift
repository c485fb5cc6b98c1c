import JSON

/// Notifications for observers: the SDK's delegate callbacks as values.
///
/// Machines collect these while handling events; the composed machine drains the
/// sub-machines' with `takeEvents()` after each call and hands them, in order, to the
/// Orchestrator's Engine, which records them for observers.
public enum ComplianceEvent: Sendable, Hashable, CustomStringConvertible, Codable {
    /// An enrollment attempt finished (IntuneMAMEnrollmentDelegate enrollmentRequestWithStatus).
    case enrollment(EnrollmentReport)
    /// A policy check-in finished (policyRequestWithStatus): 100, 101, 102 or a failure code.
    case policy(EnrollmentReport)
    /// An unenrollment finished (unenrollRequestWithStatus): 104 or a failure code.
    case unenroll(EnrollmentReport)
    /// A remediation delivered its one status (IntuneMAMComplianceDelegate).
    case compliance(ComplianceStatusReport)
    /// The allowed-accounts list changed (IntuneMAMAllowedAccountsDidChangeNotification).
    case allowedAccountsChanged(old: AllowedAccounts, new: AllowedAccounts, removed: [AccountID])
    /// A selective wipe of the account began.
    case wipeStarted(AccountID, WipeReason)
    /// A selective wipe of the account completed.
    case wipeFinished(AccountID)
    /// The first policy was applied; the app must restart (IntuneMAMPolicyDelegate restartApplication).
    case restartRequired(AccountID)
    /// The app answered `restartApplication` (its restart hook ran): YES, it restarts itself
    /// and reports it; NO, the SDK restarts it after telling the user (``RestartAnswer/notice``).
    case restartApplicationAnswered(AccountID, RestartAnswer)
    /// A remediation started, or queued behind another account's (remediateComplianceForIdentity).
    case remediationStarted(AccountID, silent: Bool)
    /// The app's wipe hook (`wipeDataForAccount`) ended: `outcome` says how, `appRemovedData`
    /// is its answer (exit status 0).
    case wipeHookRan(AccountID, outcome: String, appRemovedData: Bool)
    /// The allowed accounts refused a sign-in.
    case signInRefused(SignInRefusal)
    /// A sign-in got its token.
    case signedIn(AccountID)
    /// The account is signed out because its data is wiped.
    case signedOut(AccountID, WipeReason)
    /// A token request of the app succeeded; `xmsCC` is the access token's `xms_cc` claim
    /// (null when it has none).
    case tokenAcquired(AccountID, scopes: [String], xmsCC: JSONValue)
    /// A token request of the app failed.
    case tokenFailed(AccountID, scopes: [String], TokenAcquisitionFailure)
    /// A policy is in force for the account (its version).
    case policyApplied(AccountID, version: String)
    /// The app restarted after its first policy.
    case appRestarted(AccountID)
    /// The account's MAM app configuration changed with a policy it received
    /// (`IntuneMAMAppConfigDidChangeNotification`, with the account).
    case appConfigChanged(AccountID)
    /// The app finished launching without an app protection policy (`MAMPolicyWarnAbsent`:
    /// the user is warned; `MAMPolicyRequired`, `required`: the app is blocked until one arrives).
    case policyAbsent(required: Bool)
    /// A `setUIPolicyIdentity` ended (its completion handler's result).
    case identitySwitched(IdentitySwitch)
    /// The SDK asks the app to switch to this identity (nil: the empty string, no user)
    /// (`IntuneMAMPolicyDelegate identitySwitchRequired…:reason:`); the daemon, as the app, does.
    case identitySwitchRequired(AccountID?, IdentitySwitchReason)
    /// The app answered an SDK question about identities (its identity hook):
    /// `identitySwitchRequired` or `addIdentity`, Success or Failed.
    case appAnsweredIdentity(AppIdentityQuestion, AppIdentityAnswer)
    /// The daemon started: `resumed` pieces of interrupted work were finished first; `clock`
    /// is `virtual` or `real`.
    case daemonStarted(resumed: Int, clock: String)
    /// A timer the account waited for fired (due at `dueAt`).
    case timerFired(AccountID, EnrollmentStateMachine.Timer, dueAt: Instant)
    /// The virtual clock moved.
    case clockAdvanced(from: Instant, to: Instant)
    /// The managed account's files stored plain were encrypted: its policy requires encryption
    /// (`fileEncryptionRequired`). `files` names them.
    case dataReprotected(AccountID, files: [String])
    /// The app set, changed or cleared runtime overrides of its Entra settings (`IntuneMAMSettings`).
    case settingsOverridden(SettingsOverrides)
    /// An unenrollment ended the runtime overrides ("until the user is unenrolled").
    case settingsOverridesCleared(AccountID)

    public var description: String {
        switch self {
        case .enrollment(let report): "enrollment \(report)"
        case .policy(let report): "policy \(report)"
        case .unenroll(let report): "unenroll \(report)"
        case .compliance(let report): "compliance \(report)"
        case .allowedAccountsChanged(let old, let new, let removed):
            "allowedAccountsChanged \(old) -> \(new), removed \(removed.map(\.upn))"
        case .wipeStarted(let account, let reason): "wipeStarted \(account.upn) (\(reason))"
        case .wipeFinished(let account): "wipeFinished \(account.upn)"
        case .restartRequired(let account): "restartRequired \(account.upn)"
        case .restartApplicationAnswered(let account, let answer): "\(answer) \(account.upn)"
        case .remediationStarted(let account, let silent): "remediationStarted \(account.upn)\(silent ? " (silent)" : "")"
        case .wipeHookRan(let account, let outcome, _): "wipeHookRan \(account.upn): \(outcome)"
        case .signInRefused(let refusal): "signInRefused \(refusal.account.upn) (\(refusal.code))"
        case .signedIn(let account): "signedIn \(account.upn)"
        case .signedOut(let account, let reason): "signedOut \(account.upn) (\(reason))"
        case .tokenAcquired(let account, let scopes, _): "tokenAcquired \(account.upn) \(scopes.joined(separator: " "))"
        case .tokenFailed(let account, let scopes, let failure): "tokenFailed \(account.upn) \(scopes.joined(separator: " ")): \(failure)"
        case .policyApplied(let account, let version): "policyApplied \(account.upn) \(version)"
        case .appRestarted(let account): "appRestarted \(account.upn)"
        case .appConfigChanged(let account): "appConfigChanged \(account.upn)"
        case .policyAbsent(let required): "policyAbsent\(required ? " (required: the app is blocked)" : " (warning)")"
        case .identitySwitched(let outcome): "identitySwitched \(outcome.identity?.upn ?? "no user"): \(outcome.result.rawValue)"
        case .settingsOverridden(let overrides): "settingsOverridden\(overrides.isEmpty ? " (cleared)" : "")"
        case .settingsOverridesCleared(let account): "settingsOverridesCleared (\(account.upn) unenrolled)"
        case .identitySwitchRequired(let account, let reason): "identitySwitchRequired \(account?.upn ?? "no user") (\(reason.rawValue))"
        case .appAnsweredIdentity(let question, let answer): "the app answered \(question): \(answer)"
        case .dataReprotected(let account, let files): "dataReprotected \(account.upn) \(files.joined(separator: " "))"
        case .daemonStarted(let resumed, let clock): "daemonStarted (\(resumed) resumed, \(clock) clock)"
        case .timerFired(let account, let timer, _): "timerFired \(account.upn) \(ComplianceEvent.timerName(timer))"
        case .clockAdvanced(let from, let to): "clockAdvanced \(from.millisecondsSinceEpoch) -> \(to.millisecondsSinceEpoch)"
        }
    }
}

/// An enrollment, policy or unenrollment result with its code and message.
public struct EnrollmentReport: Sendable, Hashable, CustomStringConvertible, Codable {
    public var account: AccountID
    public var status: EnrollmentStatus
    public var message: String

    /// A report with the status's standard message.
    public init(account: AccountID, status: EnrollmentStatus) {
        self.account = account
        self.status = status
        self.message = status.message
    }

    public var description: String { "\(account.upn): \(status) \(message)" }
}

/// Why an account's data is being wiped.
public enum WipeReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// `deregister(account, wipe: true)`.
    case deregistered
    /// The administrator sent a wipe command (check-in 102).
    case adminCommand
    /// The account left the allowed-accounts list.
    case notAllowed
    /// Remediation failed for an account that held managed data.
    case remediationFailed
}

/// A state-to-state edge a machine documents (and the README's Mermaid diagram draws).
public struct DocumentedTransition: Sendable, Hashable, CustomStringConvertible, Codable {
    public let from: String
    public let to: String
    /// The event method that takes the edge.
    public let event: String

    /// An edge from state `from` to state `to`, taken by `event`.
    public init(_ from: String, _ to: String, _ event: String) {
        self.from = from
        self.to = to
        self.event = event
    }

    /// The Mermaid `stateDiagram-v2` line: `from --> to: event`.
    public var mermaid: String { "\(from) --> \(to): \(event)" }
    public var description: String { mermaid }
}

extension ComplianceEvent {
    /// The kind of an event as the event log and every tool spell it (`"wipeHook"` for
    /// ``wipeHookRan(_:outcome:appRemovedData:)``, ...): the one spelling the log, the flow
    /// parser's known names and the docs derive from.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case enrollment
        case policy
        case unenroll
        case compliance
        case allowedAccountsChanged
        case wipeStarted
        case wipeFinished
        case restartRequired
        case restartApplicationAnswered = "restartApplication"
        case remediationStarted
        case wipeHookRan = "wipeHook"
        case signInRefused
        case signedIn
        case signedOut
        case tokenAcquired
        case tokenFailed
        case policyApplied
        case appRestarted
        case appConfigChanged
        case policyAbsent
        case identitySwitched
        case settingsOverridden
        case settingsOverridesCleared
        case identitySwitchRequired
        case appAnsweredIdentity
        case dataReprotected
        case daemonStarted
        case timerFired
        case clockAdvanced
    }

    /// This event's kind.
    public var kind: Kind {
        switch self {
        case .enrollment: .enrollment
        case .policy: .policy
        case .unenroll: .unenroll
        case .compliance: .compliance
        case .allowedAccountsChanged: .allowedAccountsChanged
        case .wipeStarted: .wipeStarted
        case .wipeFinished: .wipeFinished
        case .restartRequired: .restartRequired
        case .restartApplicationAnswered: .restartApplicationAnswered
        case .remediationStarted: .remediationStarted
        case .wipeHookRan: .wipeHookRan
        case .signInRefused: .signInRefused
        case .signedIn: .signedIn
        case .signedOut: .signedOut
        case .tokenAcquired: .tokenAcquired
        case .tokenFailed: .tokenFailed
        case .policyApplied: .policyApplied
        case .appRestarted: .appRestarted
        case .appConfigChanged: .appConfigChanged
        case .policyAbsent: .policyAbsent
        case .identitySwitched: .identitySwitched
        case .settingsOverridden: .settingsOverridden
        case .settingsOverridesCleared: .settingsOverridesCleared
        case .identitySwitchRequired: .identitySwitchRequired
        case .appAnsweredIdentity: .appAnsweredIdentity
        case .dataReprotected: .dataReprotected
        case .daemonStarted: .daemonStarted
        case .timerFired: .timerFired
        case .clockAdvanced: .clockAdvanced
        }
    }
}


extension ComplianceEvent {
    /// A timer as the event log and the clock's answers name it: `enrollmentRetry` or `checkIn`.
    public static func timerName(_ timer: EnrollmentStateMachine.Timer) -> String {
        switch timer {
        case .enrollmentRetry: "enrollmentRetry"
        case .policyCheckIn: "checkIn"
        }
    }
}
