import JSON
import PropertyBased
import Testing
@testable import ComplianceCore

/// Drives a remediation machine with random answers, random interleaved calls and random
/// crashes (rebuilding from the last stored snapshot), checking invariants as it goes.
struct RemediationDriver {
    var machine = RemediationStateMachine()
    var stored: JSONValue?
    var outstanding: RemediationStateMachine.Action?
    var choices: Choices
    var violations = Violations(RemediationStateMachine.documentedTransitions)
    /// Accounts with a remediate() call not yet answered by a status.
    var awaitingStatus: Set<AccountID> = []
    /// Accounts wiped or removed since their last remediate() call.
    var wiped: Set<AccountID> = []
    /// Accounts removed through accountRemoved(); this test's runner, which stores the
    /// machine on its own, knows them from their wipe journals and reports them again after a
    /// restart.
    var removedElsewhere: Set<AccountID> = []
    /// The allowed list of the last policy each account's run received.
    var lastPolicy: [AccountID: AllowedAccounts] = [:]
    var statuses: [ComplianceStatus] = []
    let accounts = [alice, bob, carol]

    init(_ list: [Int]) { choices = Choices(list) }

    /// One event; when it changed the snapshot, the step's commit stores it (the process may
    /// die before or after the store) before the action runs.
    mutating func event(_ body: (inout RemediationStateMachine) -> RemediationStateMachine.Action) {
        let before = machine.stateName
        let snapshot = machine.snapshot
        let action = body(&machine)
        violations.transition(before, machine.stateName)
        if machine.snapshot != snapshot {
            switch choices.next(12) {
            case 1:
                crash()  // died before the store wrote
                return
            case 2:
                stored = machine.snapshot.json
                crash()  // died after the store wrote
                return
            default:
                stored = machine.snapshot.json
            }
        }
        handle(action)
    }

    mutating func handle(_ action: RemediationStateMachine.Action) {
        switch action {
        case .none:
            break
        case .deliverStatus(let report, let tokens):
            statuses.append(report.status)
            violations.check(awaitingStatus.contains(report.account), "a second status for one remediation: \(report)")
            awaitingStatus.remove(report.account)
            if let tokens {
                violations.check(report.status == .compliant, "tokens with \(report.status)")
                violations.check(!wiped.contains(report.account), "token delivered to wiped account \(report.account) \(tokens)")
                violations.check(lastPolicy[report.account]?.allows(report.account) == true, "token delivered to non-allowed \(report.account)")
            } else {
                violations.check(report.status != .compliant, "Compliant without tokens")
            }
            outstanding = action
        case .startWipe(let account, _):
            wiped.insert(account)
            outstanding = action
        default:
            outstanding = action
        }
    }

    mutating func crash() {
        outstanding = nil
        if let stored {
            machine = RemediationStateMachine(restoring: try! .init(json: try! JSONValue.parse(stored.encoded())))
        } else {
            machine = RemediationStateMachine()
        }
        let before = machine.stateName
        let action = machine.resumed()
        violations.transition(before, machine.stateName)
        handle(action)
        for account in removedElsewhere.sorted() {
            event { $0.accountRemoved(account) }
        }
    }

    mutating func remediate() {
        let account = choices.pick(accounts)
        awaitingStatus.insert(account)
        wiped.remove(account)
        removedElsewhere.remove(account)
        let silent = choices.next(2) == 0
        event { $0.remediate(account, silent: silent) }
    }

    mutating func answer(_ action: RemediationStateMachine.Action) {
        outstanding = nil
        switch action {
        case .acquireMAMToken:
            let failure = choices.pick([TokenAcquisitionFailure.userCancelled, .networkFailure("reset"), .interactionRequired(nil)])
            if choices.next(5) == 1 { event { $0.mamTokenFailed(failure) } } else { event { $0.mamTokenAcquired() } }
        case .enroll:
            if choices.next(5) == 1 {
                let status = choices.pick([EnrollmentStatus.accountNotLicensed, .enrollmentEndPointNetworkFailure, .loginCanceled])
                event { $0.enrollmentFailed(status) }
            } else {
                event { $0.enrollmentSucceeded() }
            }
        case .fetchPolicy(let account):
            if choices.next(6) == 1 {
                event { $0.policyFetchFailed(.noPolicyReceived) }
            } else {
                let allowed = choices.pick([AllowedAccounts.anyone, AllowedAccounts([alice]), AllowedAccounts([bob, carol]), AllowedAccounts([])])
                lastPolicy[account] = allowed
                event { $0.policyReceived(MAMPolicy(version: "v", allowedAccounts: allowed)) }
            }
        case .applyPolicy:
            event { $0.policyApplied() }
        case .restartApp:
            if choices.next(2) == 1 { crash() } else { event { $0.appRestarted() } }
        case .reportCompliance:
            if choices.next(6) == 1 { event { $0.complianceReportFailed(.policyEndPointNetworkFailure) } } else { event { $0.complianceReported() } }
        case .retryTokenRequest:
            if choices.next(5) == 1 {
                event { $0.retriedTokenRequestCompleted(.failure(.serviceFailure(ServiceFailure(status: 500)))) }
            } else {
                event { $0.retriedTokenRequestCompleted(.success(tokenSet())) }
            }
        case .startWipe:
            event { $0.wipeStarted() }
        case .deliverStatus:
            event { $0.statusDelivered() }
        case .none:
            violations.check(false, "not an outstanding step: \(action)")
        }
    }

    mutating func run() {
        for _ in 0..<400 {
            switch choices.next(12) {
            case 1, 2: remediate()
            case 3:
                let account = choices.pick(accounts)
                wiped.insert(account)
                removedElsewhere.insert(account)
                event { $0.accountRemoved(account) }
            case 4: crash()
            default:
                if let outstanding { answer(outstanding) } else if choices.exhausted { return } else { remediate() }
            }
        }
    }
}

@Suite struct RemediationProperties {
    @Test func neverTwoStatusesAndNeverATokenForANonAllowedOrWipedAccount() async {
        var seen: Set<ComplianceStatus> = []
        await propertyCheck(count: 300, input: choiceLists) { list in
            var driver = RemediationDriver(list)
            driver.run()
            #expect(driver.violations.messages.isEmpty, "\(driver.violations.messages)")
            seen.formUnion(driver.statuses)
        }
        // The random runs reach every outcome the driver can produce, so the checks above are not vacuous.
        #expect(seen.isSuperset(of: [.compliant, .notCompliant, .serviceFailure, .networkFailure, .userCancelled, .interactionRequired]), "\(seen)")
    }

    @Test func theDriverDetectsViolations() {
        var driver = RemediationDriver([])
        driver.handle(.deliverStatus(ComplianceStatusReport(account: alice, status: .notCompliant), tokens: nil))
        driver.awaitingStatus = [bob]
        driver.wiped = [bob]
        driver.handle(.deliverStatus(ComplianceStatusReport(account: bob, status: .compliant), tokens: tokenSet()))
        driver.violations.transition("idle", "retryingTokenRequest")
        #expect(driver.violations.messages.count == 4)
    }
}
