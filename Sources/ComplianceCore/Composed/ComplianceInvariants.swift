/// The properties the composed ``ComplianceMachine`` must keep, each a function over one
/// transition: the machine before and after it, what it did (``Transition``), and what the
/// world holds (``Facts``: the app's stores, the MAM service, what happened so far). The
/// explorer (`compliance-explore`) checks every one after every transition it explores;
/// tests break each on purpose.
public enum ComplianceInvariants {
    /// An invariant, numbered as in the composed-machine issue and README.md.
    public enum Invariant: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible, Codable {
        case noTokenForExcludedOrWiped = 1
        case nothingLeftAfterWipe = 2
        case atMostOneManagedAccount = 3
        case oneReportPerRemediation = 4
        case committedStepNeverRepeated = 5
        case oneNotificationPerRequest = 6
        case firstPolicyRestarts = 7
        case registrationsRetried = 8
        case removalUnenrollsFirst = 9
        case successOnlyIfCommitted = 10
        case onlyGrantedScopes = 11
        case noMAMWithoutService = 12
        case tokensOfTheAccountsPerson = 13
        case noTokenWithoutRequiredPolicy = 14
        case noManagedDataUnderDisallowedIdentity = 15
        case owedRestartHoldsTheApp = 16
        case tokensStayWithTheirIssuer = 17
        case credentialsReachTheIssuer = 18
        case allowedListOutlivesItsPolicy = 19
        case failedCommitKeepsTheIdentities = 20
        case everyRestartEnds = 21
        case managedFilesEncrypted = 22
        case appAnswersDecide = 23
        case claimsChallengesAskTheIssuer = 24

        public var description: String {
            switch self {
            case .noTokenForExcludedOrWiped: "no access token is returned or cached for an account the policy excludes or that is being wiped"
            case .nothingLeftAfterWipe: "after a wipe, no data, token or compliance status remains under any spelling of the account"
            case .atMostOneManagedAccount: "at most one account holds the managed slot"
            case .oneReportPerRemediation: "every remediation ends in exactly one report; Compliant only with an enrollment and a policy"
            case .committedStepNeverRepeated: "a wipe committed done is never run again"
            case .oneNotificationPerRequest: "every enroll, check-in or unenroll answer is reported exactly once"
            case .firstPolicyRestarts: "every first policy restarts the app"
            case .registrationsRetried: "a registration retries every 24 h unless another account is managed, and retries again once none is"
            case .removalUnenrollsFirst: "an account removed from the allowed list is unenrolled at the service before it is wiped"
            case .successOnlyIfCommitted: "a reply comes only after its step is committed, once per ticket"
            case .onlyGrantedScopes: "a token is returned or cached only for scopes the issuer granted"
            case .noMAMWithoutService: "without a MAM service nothing calls one, no remediation starts and nobody is reported Compliant"
            case .tokensOfTheAccountsPerson: "a token is returned or cached for an account only when its id_token names the account and the person who signed in under it"
            case .noTokenWithoutRequiredPolicy: "with MAMPolicyRequired, the app's token requests get no token and no data is read while no app protection policy is in force"
            case .noManagedDataUnderDisallowedIdentity:
                "no identity the policy does not allow is in force, and managed data is read only under its owner's process identity (or before the app set one)"
            case .owedRestartHoldsTheApp: "while the app owes a restart (restartApplication YES), no token reaches it and the remediation waiting for the restart does not go on; only the app's report ends the debt"
            case .everyRestartEnds: "every restartRequired ends in the app's restart (appRestarted) or stays owed by the app; a crash, the restart hook's included, is the restart and is recorded as one"
            case .managedFilesEncrypted:
                "once a step settles, no file of the managed account is stored plain while its policy requires encryption, unless the disk refused the last try"
            case .failedCommitKeepsTheIdentities: "a step whose commit failed leaves the app's identities as they were: memory-only state does not fall back to never set"
            case .allowedListOutlivesItsPolicy: "the allowed accounts change only when a policy reaches the app; the last list learned stays when its account leaves or is refused"
            case .credentialsReachTheIssuer: "a sign-in or token request that carries credentials is answered by the issuer, never from the cache"
            case .appAnswersDecide:
                "an SDK question to the app (identitySwitchRequired, addIdentity) changes things only by the app's answer: Success switches or adds, Failed leaves the identities and registrations as they were; the operation that needed the answer waits for it"
            case .claimsChallengesAskTheIssuer:
                "a MAM call refused with a claims challenge is never sent again with the refused token: a cp1 app's next token for it comes from the issuer with the challenge's claims, never from the cache; an app without cp1 sends no such grant"
            case .tokensStayWithTheirIssuer: "a token is cached only under the issuer and client that issued it, a new request reads the cache of the issuer in force, and no token is ever presented to an issuer that did not issue it"
            }
        }
    }

    /// A broken invariant, with what broke it.
    public struct Violation: Sendable, Hashable, CustomStringConvertible, Codable {
        public var invariant: Invariant
        public var detail: String

        public init(_ invariant: Invariant, _ detail: String) {
            self.invariant = invariant
            self.detail = detail
        }

        public var description: String { "invariant \(invariant.rawValue) (\(invariant)): \(detail)" }
    }

    /// What the world holds after a transition. Store keys are the UTF-8 bytes the app's
    /// stores use (SQL keys, vault directory names), so two spellings of one account are two
    /// keys if the machine did not normalise them.
    public struct Facts: Sendable, Hashable, Codable {
        /// Keys with tokens in the token store.
        public var tokenKeys: Set<[UInt8]> = []
        /// Keys with files in the vault.
        public var dataKeys: Set<[UInt8]> = []
        /// Keys with files stored plain (not encrypted) in the vault.
        public var plainDataKeys: Set<[UInt8]> = []
        /// Accounts (by key bytes) the MAM service has enrolled.
        public var enrolledAtService: Set<[UInt8]> = []
        /// Accounts an unenroll request was sent for since they last enrolled.
        public var unenrollSent: Set<[UInt8]> = []
        /// Wipes committed done: key bytes and generation.
        public var wipesCommittedDone: Set<WipeRef> = []
        /// Remediations started and reports delivered so far, per account key bytes.
        public var remediationsStarted: [[UInt8]: Int] = [:]
        public var reportsDelivered: [[UInt8]: Int] = [:]
        /// Tickets answered before this transition.
        public var answeredTickets: Set<ComplianceMachine.Ticket> = []
        /// The managed data the transition read, if it read some.
        public var dataRead: DataRead?
        /// Tokens the transition filed under, or presented to, an issuer that did not issue them.
        public var strangerTokens: [String] = []
        /// The callers waiting during the transition whose requests carry credentials.
        public var credentialedTickets: Set<ComplianceMachine.Ticket> = []
        /// Accounts (key bytes) whose restartRequired has no appRestarted yet.
        public var restartsOutstanding: Set<[UInt8]> = []
        /// The transition is a crash and restart of the process.
        public var crashed = false
        /// The claims challenge the transition fed (the MAM service refused a token with it).
        public var claimsChallenge: ClaimsChallenge?
        /// The app's identities in the machine rebuilt after the transition's failed commit
        /// (``ComplianceMachine/reloadedAfterFailedCommit(_:)``), before it resumed: steps
        /// after the reload may change them as any step may.
        public var identitiesAtReload: AppIdentities?

        public init() {}
    }

    /// A read of managed data (a file or a buffer): whose, and under which effective file
    /// identity (the process identity; nil: no user). The UI identity is not part of it: the
    /// guide's "The UI identity doesn't affect file tasks like encryption and backup".
    public struct DataRead: Sendable, Hashable, Codable {
        public var owner: AccountID
        public var fileIdentity: AccountID?
        /// The app had set no process identity since it started.
        public var processIdentityUnset: Bool
        /// The owner was the managed account (unmanaged data reads under any identity).
        public var managed: Bool

        public init(owner: AccountID, fileIdentity: AccountID?, processIdentityUnset: Bool, managed: Bool = true) {
            self.owner = owner
            self.fileIdentity = fileIdentity
            self.processIdentityUnset = processIdentityUnset
            self.managed = managed
        }
    }

    /// One wipe of one account.
    public struct WipeRef: Sendable, Hashable, Codable {
        public var key: [UInt8]
        public var generation: Int
        public init(key: [UInt8], generation: Int) {
            self.key = key
            self.generation = generation
        }
    }

    /// One transition.
    public struct Transition: Sendable {
        /// The machine before the event (nil for the first state).
        public var before: ComplianceMachine?
        /// The machine after the event and the actions taken.
        public var after: ComplianceMachine
        /// The actions taken, in order (a failed persist's commands are not taken).
        public var actions: [ComplianceMachine.Action]
        /// The persist of the step failed (the Orchestrator reloaded the machine).
        public var persistFailed: Bool
        /// Which action of ``actions`` is the persist that failed; nil with `persistFailed`
        /// means the first persist. The actions after it come from the reloaded machine.
        public var failedPersistIndex: Int?
        /// The MAM answer the event fed, if it fed one: its account and kind.
        public var fedMAMAnswer: (account: AccountID, kind: NotificationKind)?

        public init(
            before: ComplianceMachine?, after: ComplianceMachine, actions: [ComplianceMachine.Action], persistFailed: Bool = false,
            failedPersistIndex: Int? = nil, fedMAMAnswer: (account: AccountID, kind: NotificationKind)? = nil
        ) {
            self.before = before
            self.after = after
            self.actions = actions
            self.persistFailed = persistFailed || failedPersistIndex != nil
            self.failedPersistIndex = failedPersistIndex
            self.fedMAMAnswer = fedMAMAnswer
        }

        /// The index of the persist that failed, if one did.
        var failedIndex: Int? {
            guard persistFailed else { return nil }
            return failedPersistIndex ?? actions.firstIndex { if case .persist = $0 { true } else { false } }
        }

        /// The actions whose effects took place: all but the persist that failed.
        var takenActions: [ComplianceMachine.Action] {
            guard let failed = failedIndex else { return actions }
            return actions.enumerated().filter { $0.offset != failed }.map(\.element)
        }

        /// The notifications the transition committed.
        var events: [ComplianceEvent] {
            takenActions.flatMap { action -> [ComplianceEvent] in
                if case .persist(let changes) = action { return changes.events }
                return []
            }
        }
    }

    /// The notification an enroll, check-in or unenroll answer ends in.
    public enum NotificationKind: Sendable, Hashable, Codable {
        case enrollment, policy, unenroll
    }

    /// Every invariant, in order.
    public static func check(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        found += noTokenForExcludedOrWiped(transition, facts: facts)
        found += nothingLeftAfterWipe(transition, facts: facts)
        found += atMostOneManagedAccount(transition)
        found += oneReportPerRemediation(transition, facts: facts)
        found += committedStepNeverRepeated(transition, facts: facts)
        found += oneNotificationPerRequest(transition)
        found += firstPolicyRestarts(transition)
        found += registrationsRetried(transition)
        found += removalUnenrollsFirst(transition, facts: facts)
        found += successOnlyIfCommitted(transition, facts: facts)
        found += onlyGrantedScopes(transition)
        found += noMAMWithoutService(transition)
        found += tokensOfTheAccountsPerson(transition)
        found += noTokenWithoutRequiredPolicy(transition, facts: facts)
        found += noManagedDataUnderDisallowedIdentity(transition, facts: facts)
        found += owedRestartHoldsTheApp(transition)
        found += tokensStayWithTheirIssuer(transition, facts: facts)
        found += credentialsReachTheIssuer(transition, facts: facts)
        found += allowedListOutlivesItsPolicy(transition)
        found += failedCommitKeepsTheIdentities(transition, facts: facts)
        found += everyRestartEnds(transition, facts: facts)
        found += managedFilesEncrypted(transition, facts: facts)
        found += appAnswersDecide(transition)
        found += claimsChallengesAskTheIssuer(transition, facts: facts)
        return found
    }

    /// The key bytes the stores use for `account`.
    public static func storeKey(_ account: AccountID) -> [UInt8] { Array(account.key.utf8) }

    /// True when `key` names `account` under any spelling (canonically equivalent, ignoring case).
    public static func key(_ key: [UInt8], names account: AccountID) -> Bool {
        String(decoding: key, as: UTF8.self).lowercased() == account.key
    }

    // MARK: - 1

    /// 1. No access token is returned or cached for an account the current policy excludes,
    /// or one being wiped (or wiped and not signed in again).
    public static func noTokenForExcludedOrWiped(_ transition: Transition, facts: Facts) -> [Violation] {
        let machine = transition.after
        var found: [Violation] = []
        func mayHold(_ account: AccountID) -> Bool {
            machine.allowed.allowed.allows(account) && !machine.isLeaving(account)
        }
        for action in transition.takenActions {
            switch action {
            case .reply(_, let reply):
                if let (account, _) = tokens(of: reply), !mayHold(account) {
                    found.append(Violation(.noTokenForExcludedOrWiped, "a token was returned to \(account.upn), which the allowed list excludes or is being wiped"))
                }
            case .persist(let changes):
                for entry in changes.tokens where !mayHold(entry.account) {
                    found.append(Violation(.noTokenForExcludedOrWiped, "tokens of \(entry.account.upn) were cached while it is excluded or being wiped"))
                }
            default:
                break
            }
        }
        for key in facts.tokenKeys {
            guard let account = machine.knownAccounts.first(where: { Self.key(key, names: $0) }) else { continue }
            if !machine.allowed.allowed.allows(account), !machine.isLeaving(account), !machine.allowed.isBeingRemoved(account) {
                found.append(Violation(.noTokenForExcludedOrWiped, "the token store holds tokens of \(account.upn), which the allowed list excludes, and nothing removes them"))
            }
        }
        return found
    }

    static func tokens(of reply: ComplianceMachine.Reply) -> (AccountID, TokenSet)? {
        switch reply {
        case .token(let answer), .signIn(_, let answer): answer.tokens.map { (answer.account, $0) }
        case .remediation(let report, let tokens): tokens.map { (report.account, $0) }
        default: nil
        }
    }

    // MARK: - 2

    /// 2. When a wipe completes, nothing of the account remains under any spelling: no
    /// tokens, no vault files, no compliance status.
    public static func nothingLeftAfterWipe(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        for account in transition.after.knownAccounts {
            guard let wipe = transition.after.accounts[account]?.wipe, wipe.isFinished else { continue }
            let before = transition.before?.accounts[account]?.wipe
            guard before?.isFinished != true || before?.wipe?.generation != wipe.wipe?.generation else { continue }
            if facts.tokenKeys.contains(where: { key($0, names: account) }) {
                found.append(Violation(.nothingLeftAfterWipe, "\(account.upn) was wiped but the token store still holds its tokens"))
            }
            if facts.dataKeys.contains(where: { key($0, names: account) }) {
                found.append(Violation(.nothingLeftAfterWipe, "\(account.upn) was wiped but the vault still holds its files (under some spelling)"))
            }
            if transition.after.accounts[account]?.compliance != nil {
                found.append(Violation(.nothingLeftAfterWipe, "\(account.upn) was wiped but its compliance status remains"))
            }
        }
        return found
    }

    // MARK: - 3

    /// 3. At most one account holds the managed slot (enrolled, enrolling, still unenrolling).
    public static func atMostOneManagedAccount(_ transition: Transition) -> [Violation] {
        let machine = transition.after
        var holders = machine.knownAccounts.filter { machine.accounts[$0]?.enrollment.holdsManagedSlot == true }
        if let active = machine.remediation.activeAccount, machine.remediation.activeStep == .enrolling, !holders.contains(active) {
            holders.append(active)
        }
        guard holders.count > 1 else { return [] }
        return [Violation(.atMostOneManagedAccount, "\(holders.map(\.upn).joined(separator: " and ")) hold the managed slot at once")]
    }

    // MARK: - 4

    /// 4. No remediation reports more than once (reports never outnumber starts, and when
    /// nothing of an account's remediation runs or waits they are equal); a Compliant report
    /// only for an enrolled account with a policy.
    public static func oneReportPerRemediation(_ transition: Transition, facts: Facts) -> [Violation] {
        let machine = transition.after
        var found: [Violation] = []
        for event in transition.events {
            guard case .compliance(let report) = event, report.status == .compliant else { continue }
            let state = machine.accounts[report.account]
            if state?.enrollment.isEnrolled != true || state?.policy == nil {
                found.append(Violation(.oneReportPerRemediation, "\(report.account.upn) was reported Compliant without an enrollment and a policy"))
            }
        }
        for (key, reports) in facts.reportsDelivered {
            let started = facts.remediationsStarted[key] ?? 0
            if reports > started {
                found.append(Violation(.oneReportPerRemediation, "\(String(decoding: key, as: UTF8.self)): \(reports) reports for \(started) remediations"))
            }
            guard let account = machine.knownAccounts.first(where: { storeKey($0) == key }) else { continue }
            let running = machine.remediation.activeAccount == account || machine.remediation.queuedAccounts.contains(account)
            if !running, machine.isQuiescent, reports != started {
                found.append(Violation(.oneReportPerRemediation, "\(account.upn): \(started) remediations but \(reports) reports, and none runs"))
            }
        }
        return found
    }

    // MARK: - 5

    /// 5. A wipe committed done is never run again (after a crash or otherwise).
    public static func committedStepNeverRepeated(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        for action in transition.actions {
            let account: AccountID
            switch action {
            case .removeTokens(_, let target), .removeVaultFiles(_, let target), .runAppHook(_, let target): account = target
            default: continue
            }
            guard let generation = transition.after.accounts[account]?.wipe.wipe?.generation else { continue }
            if facts.wipesCommittedDone.contains(WipeRef(key: storeKey(account), generation: generation)) {
                found.append(Violation(.committedStepNeverRepeated, "wipe \(generation) of \(account.upn) was committed done and runs again (\(action))"))
            }
        }
        return found
    }

    // MARK: - 6

    /// 6. An enroll, check-in or unenroll answer fed to the machine ends in exactly one
    /// notification of its kind for its account, in the same step.
    public static func oneNotificationPerRequest(_ transition: Transition) -> [Violation] {
        guard let fed = transition.fedMAMAnswer, !transition.persistFailed else { return [] }
        let count = transition.events.filter { event in
            switch (event, fed.kind) {
            case (.enrollment(let report), .enrollment), (.policy(let report), .policy), (.unenroll(let report), .unenroll): report.account == fed.account
            default: false
            }
        }.count
        // A claims challenge the machine answers by asking the issuer again is notified by the
        // answer to the call it sends again (invariant 24).
        let expected = transition.after.volatile.claimsRetried.contains { $0.account == fed.account && $0.notificationKind == fed.kind } ? 0 : 1
        guard count != expected else { return [] }
        return [Violation(.oneNotificationPerRequest, "an answer for \(fed.account.upn) ended in \(count) \(fed.kind) notifications")]
    }

    // MARK: - 7

    /// 7. Every first policy (an account that held none) restarts the app, on every path. A
    /// first policy that arrives while the app's restart is already asked (the restart hook has
    /// not answered) is put in force by that restart, which is still to come after it.
    public static func firstPolicyRestarts(_ transition: Transition) -> [Violation] {
        guard let before = transition.before, !transition.persistFailed else { return [] }
        var found: [Violation] = []
        let restartToCome = before.restartPending != nil && transition.after.restartPending == before.restartPending
        for event in transition.events {
            guard case .policyApplied(let account, _) = event, before.accounts[account]?.policy == nil,
                  !(restartToCome && before.restartPending != account)
            else { continue }
            let restarts = transition.actions.contains { $0 == .restartApp(account) }
            let required = transition.events.contains { $0 == .restartRequired(account) }
            if !restarts || !required {
                found.append(Violation(.firstPolicyRestarts, "the first policy of \(account.upn) was applied without restarting the app"))
            }
        }
        return found
    }

    // MARK: - 8

    /// 8. A failed registration waits for its 24 h retry unless another account holds the
    /// managed slot, and waits for the slot only while one does.
    public static func registrationsRetried(_ transition: Transition) -> [Violation] {
        let machine = transition.after
        guard machine.isQuiescent || !machine.isAwaitingPersist else { return [] }
        var found: [Violation] = []
        for account in machine.knownAccounts {
            guard let phase = machine.accounts[account]?.enrollment.phase else { continue }
            let holder = machine.slotHolder(besides: account)
            if phase == .waitingForSlot, holder == nil {
                found.append(Violation(.registrationsRetried, "\(account.upn) waits for the managed slot, but no account holds it: its retries never begin again"))
            }
            if phase == .awaitingRetry, let holder {
                found.append(Violation(.registrationsRetried, "\(account.upn) awaits a retry while \(holder.upn) is managed"))
            }
        }
        return found
    }

    // MARK: - 9

    /// 9. An account removed from the allowed list that the app holds as enrolled (it has the
    /// service's enrollment id) is unenrolled at the service before its local wipe starts: an
    /// unenroll request was sent, or the step that starts the wipe reports why none could be
    /// (no MAM token: 203). An unreachable or failing service does not keep the excluded
    /// account's data on the device.
    public static func removalUnenrollsFirst(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        let events = transition.events
        for event in events {
            guard case .wipeStarted(let account, .notAllowed) = event else { continue }
            guard transition.before?.accounts[account]?.enrollmentID != nil else { continue }
            let told = events.contains { if case .unenroll(let report) = $0 { report.account == account } else { false } }
            if !facts.unenrollSent.contains(storeKey(account)), !told {
                found.append(Violation(.removalUnenrollsFirst, "\(account.upn) left the allowed list and is wiped while enrolled, without an unenroll request"))
            }
        }
        return found
    }

    // MARK: - 10

    /// 10. A reply comes only after its step's persist committed (a failed persist delivers
    /// no success), and each ticket is answered once.
    public static func successOnlyIfCommitted(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        var committed = true
        var answered = facts.answeredTickets
        for (index, action) in transition.actions.enumerated() {
            switch action {
            case .persist:
                committed = index != transition.failedIndex
            case .reply(let ticket, let reply):
                if !committed, reply.isSuccess {
                    found.append(Violation(.successOnlyIfCommitted, "\(ticket) was answered \(reply) though its step was not committed"))
                }
                if !answered.insert(ticket).inserted {
                    found.append(Violation(.successOnlyIfCommitted, "\(ticket) was answered twice"))
                }
            default:
                break
            }
        }
        return found
    }

    // MARK: - 11

    /// 11. A token is returned for, or cached under, only scopes the issuer granted: when it
    /// declined some (its `scope` answer leaves them out), the caller gets the declined-scopes
    /// error and the store keeps the tokens under the granted ones alone.
    public static func onlyGrantedScopes(_ transition: Transition) -> [Violation] {
        var found: [Violation] = []
        for action in transition.takenActions {
            switch action {
            case .reply(_, let reply):
                let answer: ComplianceMachine.TokenAnswer
                switch reply {
                case .token(let given), .signIn(_, let given): answer = given
                default: continue
                }
                guard let tokens = answer.tokens else { continue }
                let declined = DeclinedScopes.declined(requested: answer.scopes, granted: tokens.scopes)
                if !declined.isEmpty {
                    found.append(Violation(.onlyGrantedScopes, "\(answer.account.upn) was handed a token for \(declined), which the issuer declined"))
                }
            case .persist(let changes):
                for entry in changes.tokens {
                    let declined = DeclinedScopes.declined(requested: entry.scopes, granted: entry.tokens.scopes)
                    if !declined.isEmpty {
                        found.append(Violation(.onlyGrantedScopes, "tokens of \(entry.account.upn) were cached under \(declined), which the issuer declined"))
                    }
                }
            default:
                break
            }
        }
        return found
    }

    // MARK: - 12

    /// 12. Without a MAM service (``ComplianceMachine/Configuration/mamService`` false: an
    /// OpenID Connect issuer and no MAM URL) no MAM request is made, no remediation starts,
    /// and no compliance report says Compliant: a 53005 answer stays the token's failure.
    public static func noMAMWithoutService(_ transition: Transition) -> [Violation] {
        guard !transition.after.configuration.mamService else { return [] }
        var found: [Violation] = []
        for action in transition.takenActions {
            if case .callMAM(_, let request, _) = action {
                found.append(Violation(.noMAMWithoutService, "a MAM request was made without a MAM service: \(request)"))
            }
            if case .reply(_, .remediation(let report, _)) = action, report.status == .compliant {
                found.append(Violation(.noMAMWithoutService, "\(report.account.upn) was reported Compliant by a remediation without a MAM service"))
            }
        }
        for event in transition.events {
            switch event {
            case .remediationStarted(let account, _):
                found.append(Violation(.noMAMWithoutService, "a remediation of \(account.upn) started without a MAM service"))
            case .compliance(let report) where report.status == .compliant:
                found.append(Violation(.noMAMWithoutService, "\(report.account.upn) was reported Compliant without a MAM service"))
            default:
                break
            }
        }
        return found
    }

    // MARK: - 13

    /// 13. A token is returned or cached for an account only when its identity (from the
    /// validated id_token) is the account's: the username it claims is the account, and its
    /// object identity is the one the account signed in with (recorded at the first sign-in).
    public static func tokensOfTheAccountsPerson(_ transition: Transition) -> [Violation] {
        let machine = transition.after
        var found: [Violation] = []
        func check(_ account: AccountID, _ tokens: TokenSet, _ what: String) {
            guard let identity = tokens.identity else { return }
            let known = machine.accounts[account]?.subject
            if let mismatch = identity.mismatch(for: account, knownSubject: known) {
                found.append(Violation(.tokensOfTheAccountsPerson, "\(what) \(account.upn): \(mismatch)"))
            } else if known == nil, machine.accounts[account] != nil {
                found.append(Violation(.tokensOfTheAccountsPerson, "\(what) \(account.upn) without recording who signed in"))
            }
        }
        for action in transition.takenActions {
            switch action {
            case .reply(_, let reply):
                if let (account, tokens) = tokens(of: reply) { check(account, tokens, "a token was returned to") }
            case .persist(let changes):
                for entry in changes.tokens { check(entry.account, entry.tokens, "tokens were cached for") }
            default:
                break
            }
        }
        return found
    }

    // MARK: - 14

    /// 14. With `MAMPolicyRequired` (LaunchSettings), a token request of the app (`.token`)
    /// gets no token unless an app protection policy is in force when the step ends (one its
    /// own remediation brought counts). Sign-in and remediation, which bring the policy, are
    /// not token requests of the app. Nor is any data read, whoever owns it: the app "will be
    /// blocked from starting if the app doesn't have an Intune app protection policy".
    public static func noTokenWithoutRequiredPolicy(_ transition: Transition, facts: Facts) -> [Violation] {
        let machine = transition.after
        guard machine.configuration.launch.policyRequired, machine.appPolicy == nil else { return [] }
        var found: [Violation] = []
        if let read = facts.dataRead {
            found.append(Violation(.noTokenWithoutRequiredPolicy, "\(read.owner.upn)'s data was read while no policy is in force"))
        }
        for action in transition.takenActions {
            guard case .reply(_, .token(let answer)) = action, answer.tokens != nil else { continue }
            found.append(Violation(.noTokenWithoutRequiredPolicy, "a token was returned to \(answer.account.upn) while no policy is in force"))
        }
        return found
    }

    // MARK: - 15

    /// 15. After every step, the process and UI identities the app set are accounts the
    /// allowed list allows and that are not leaving (a switch refuses any other, and one that
    /// starts to leave is replaced by no user in the step that starts it); and managed data (a
    /// file or a buffer) is read only by an owner the policy allows, while the effective file
    /// identity (the process identity) is that owner or the app has set no process identity yet;
    /// no data of an account that is leaving is read at all (a wipe the disk stopped waits with
    /// the account no longer managed, its files and key still there).
    public static func noManagedDataUnderDisallowedIdentity(_ transition: Transition, facts: Facts) -> [Violation] {
        let machine = transition.after
        var found: [Violation] = []
        for (level, setting) in [("process", machine.identities.process), ("UI", machine.identities.ui)] {
            guard let account = setting.account, !machine.mayBeInForce(account) else { continue }
            found.append(Violation(.noManagedDataUnderDisallowedIdentity, "the \(level) identity is \(account.upn), whom the policy does not allow now"))
        }
        if let read = facts.dataRead, machine.isLeaving(read.owner) {
            // Managed or not: a wipe the disk stopped waits with its files and key still there.
            found.append(Violation(.noManagedDataUnderDisallowedIdentity, "\(read.owner.upn)'s data was read while \(read.owner.upn) is leaving"))
        }
        if let read = facts.dataRead, read.managed {
            if !read.processIdentityUnset, read.fileIdentity != read.owner {
                found.append(Violation(
                    .noManagedDataUnderDisallowedIdentity,
                    "\(read.owner.upn)'s managed data was read under the process identity \(read.fileIdentity?.upn ?? "no user")"))
            }
            if !machine.mayBeInForce(read.owner) {
                found.append(Violation(.noManagedDataUnderDisallowedIdentity, "\(read.owner.upn)'s managed data was read while the policy does not allow \(read.owner.upn)"))
            }
        }
        return found
    }

    // MARK: - 16

    /// 16. While the app owes a restart (its `restartApplication` answered YES) at the step's
    /// end, no reply hands the app a token, the account it is owed for is reported nothing
    /// Compliant, and the remediation that waits for it does not go on (it may only end, when
    /// its account leaves); the debt ends only with the app's report (`appRestarted`), never
    /// with a reload or resume of the machine.
    public static func owedRestartHoldsTheApp(_ transition: Transition) -> [Violation] {
        var found: [Violation] = []
        let owedAfter = transition.after.restartOwed
        if let owed = owedAfter {
            for action in transition.takenActions {
                guard case .reply(_, let reply) = action, let (account, _) = tokens(of: reply) else { continue }
                found.append(Violation(.owedRestartHoldsTheApp, "a token was returned to \(account.upn) while the app owes the restart for \(owed.upn)"))
            }
            for case .compliance(let report) in transition.events where report.account == owed && report.status == .compliant {
                found.append(Violation(.owedRestartHoldsTheApp, "\(owed.upn)'s remediation reported Compliant before the app reported its restart"))
            }
            if let before = transition.before, before.remediationWaitsForApp, let waiting = before.remediation.activeAccount,
               transition.after.remediation.activeAccount == waiting, transition.after.remediation.activeStep != .awaitingRestart {
                found.append(Violation(.owedRestartHoldsTheApp, "\(waiting.upn)'s remediation went on before the app reported its restart"))
            }
        }
        if let owed = transition.before?.restartOwed, owedAfter == nil,
           !transition.events.contains(where: { if case .appRestarted = $0 { true } else { false } }) {
            found.append(Violation(.owedRestartHoldsTheApp, "the restart the app owed for \(owed.upn) ended without the app's report"))
        }
        return found
    }

    // MARK: - 17

    /// 17. Tokens stay with their issuer (MSAL keys its cache by environment and client id):
    /// what a grant brought is cached under the issuer and client it came from, a token request
    /// that starts reads the cache of the issuer in force, and no refresh token reaches an
    /// issuer that did not issue it (the world reports those it saw in ``Facts/strangerTokens``).
    public static func tokensStayWithTheirIssuer(_ transition: Transition, facts: Facts) -> [Violation] {
        var found = facts.strangerTokens.map { Violation(.tokensStayWithTheirIssuer, $0) }
        let inForce = transition.after.tokenEnvironment
        for action in transition.takenActions {
            // A request starts with its cache read, in the step that began it: the overrides of
            // that step are in force (a step never both changes them and starts a request).
            if case .readTokenCache(_, let account, _, let environment) = action, environment != inForce {
                found.append(Violation(.tokensStayWithTheirIssuer, "a token request of \(account.upn) read the cache of \(environment) while \(inForce) is in force"))
            }
        }
        return found
    }

    // MARK: - 18

    /// 18. A sign-in that carries credentials goes to the issuer (MSAL's interactive
    /// acquisition): its answer never comes from the cache, so a wrong password fails whatever
    /// is cached.
    public static func credentialsReachTheIssuer(_ transition: Transition, facts: Facts) -> [Violation] {
        var found: [Violation] = []
        for action in transition.takenActions {
            guard case .reply(let ticket, let reply) = action, facts.credentialedTickets.contains(ticket) else { continue }
            let answer: ComplianceMachine.TokenAnswer? = switch reply {
            case .signIn(_, let answer), .token(let answer): answer
            default: nil
            }
            if let answer, answer.tokens != nil, answer.fromCache {
                found.append(Violation(.credentialsReachTheIssuer, "a sign-in of \(answer.account.upn) that carried credentials was answered from the cache"))
            }
        }
        return found
    }

    // MARK: - 19

    /// 19. The allowed list outlives the policy that brought it: it changes only in a step fed
    /// an enrollment or check-in answer (the only answers that carry a policy), never because
    /// the account that held the policy left or was refused.
    public static func allowedListOutlivesItsPolicy(_ transition: Transition) -> [Violation] {
        guard let before = transition.before, before.allowed.allowed != transition.after.allowed.allowed else { return [] }
        switch transition.fedMAMAnswer?.kind {
        case .enrollment, .policy: return []
        default:
            return [Violation(.allowedListOutlivesItsPolicy, "the allowed accounts changed from \(before.allowed.allowed) to \(transition.after.allowed.allowed) without a policy reaching the app")]
        }
    }

    // MARK: - 20

    /// 20. A failed commit changes nothing a caller can observe, memory-only state included:
    /// when the transition's first persist fails, the machine rebuilt from the records holds
    /// the app's identities as they were before it (not "never set", the most permissive
    /// state). What the resumed machine does next is judged like any step.
    public static func failedCommitKeepsTheIdentities(_ transition: Transition, facts: Facts) -> [Violation] {
        guard let before = transition.before, let failed = transition.failedIndex,
              !transition.actions[..<failed].contains(where: { if case .persist = $0 { true } else { false } }),
              let reloaded = facts.identitiesAtReload, before.identities != reloaded
        else { return [] }
        return [Violation(.failedCommitKeepsTheIdentities, "a failed commit changed the app's identities from \(before.identities) to \(reloaded)")]
    }

    // MARK: - 21

    /// 21. Every restartRequired ends in the app's restart or stays owed by the app: a process
    /// that crashes and starts again (during the restart hook too) has restarted the app, and
    /// that start records `appRestarted` for every restart still outstanding, except the one
    /// the app owes (its `restartApplication` answered YES and it has not reported the restart).
    public static func everyRestartEnds(_ transition: Transition, facts: Facts) -> [Violation] {
        guard facts.crashed else { return [] }
        let owed = transition.after.restartOwed.map(storeKey)
        return facts.restartsOutstanding.filter { $0 != owed }.map { key in
            Violation(.everyRestartEnds, "\(String(decoding: key, as: UTF8.self)) needed a restart, the process started again, and no appRestarted was recorded")
        }
    }

    // MARK: - 22

    /// 22. Once a step settles (nothing in flight), no file of the managed account is stored
    /// plain while its policy requires encryption: a policy that brings the requirement has its
    /// files encrypted before the step's callers are answered, and a start finishes what a
    /// crash cut short. Only a re-protection the disk refused may leave them plain, until the
    /// next event tries again (``ComplianceMachine/reprotectionPending``); an account that is
    /// leaving is wiped instead.
    public static func managedFilesEncrypted(_ transition: Transition, facts: Facts) -> [Violation] {
        let machine = transition.after
        guard machine.isQuiescent, !machine.reprotectionPending, let managed = machine.managedAccount, !machine.isLeaving(managed),
              machine.isFileEncryptionRequired(for: managed), facts.plainDataKeys.contains(storeKey(managed))
        else { return [] }
        return [Violation(.managedFilesEncrypted, "\(managed.upn)'s policy requires encryption and the step settled with its files stored plain")]
    }
}
