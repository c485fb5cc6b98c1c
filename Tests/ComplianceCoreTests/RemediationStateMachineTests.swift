import JSON
import Testing
@testable import ComplianceCore

@Suite struct RemediationStateMachineTests {
    @Test func remediatePersistsThenAcquiresTheMAMToken() {
        var machine = RemediationStateMachine()
        let action = machine.remediate(alice, silent: true)
        #expect(action == .acquireMAMToken(alice, silent: true))
        #expect(RemediationStateMachine.mamScope == "https://msmamservice.api.application/.default")
    }

    @Test func mamTokenAcquiredEnrolls() {
        var machine = RemediationStateMachine.at("acquiringMAMToken")
        #expect(machine.mamTokenAcquired() == .enroll(alice))
    }

    @Test func mamTokenFailureDeliversItsStatus() {
        var machine = RemediationStateMachine.at("acquiringMAMToken")
        let action = machine.mamTokenFailed(.userCancelled)
        guard case .deliverStatus(let report, nil) = action else { Issue.record("no status"); return }
        #expect(report.status == .userCancelled)
        #expect(report.title == "Sign-in cancelled")
        #expect(machine.takeEvents() == [.compliance(report)])
    }

    @Test func enrollmentSucceededFetchesPolicy() {
        var machine = RemediationStateMachine.at("enrolling")
        let action = machine.enrollmentSucceeded()
        #expect(action == .fetchPolicy(alice))
        #expect(machine.activeStep == .awaitingPolicy)
    }

    @Test(arguments: [
        (EnrollmentStatus.accountNotLicensed, ComplianceStatus.notCompliant),
        (.enrollmentEndPointNetworkFailure, .networkFailure),
        (.internalError, .serviceFailure),
        (.authRequired, .interactionRequired),
        (.loginCanceled, .userCancelled),
    ])
    func enrollmentFailedMapsToAStatus(status: EnrollmentStatus, expected: ComplianceStatus) {
        var machine = RemediationStateMachine.at("enrolling")
        #expect(machine.enrollmentFailed(status) == .deliverStatus(ComplianceStatusReport(account: alice, status: expected, enrollmentStatus: status), tokens: nil))
    }

    @Test func policyReceivedForAnAllowedAccountIsApplied() {
        var machine = RemediationStateMachine.at("awaitingPolicy")
        let allowed = policy(allowed: [alice])
        let action = machine.policyReceived(allowed)
        #expect(action == .applyPolicy(alice, allowed))
    }

    @Test func policyNotAllowingTheAccountIsNotCompliant() {
        var machine = RemediationStateMachine.at("awaitingPolicy")
        guard case .deliverStatus(let report, nil) = machine.policyReceived(policy(allowed: [bob])) else { Issue.record("no status"); return }
        #expect(report.status == .notCompliant)
        #expect(report.message.contains("allowed accounts"))
    }

    @Test func policyFetchFailedDeliversItsStatus() {
        var machine = RemediationStateMachine.at("awaitingPolicy")
        #expect(machine.policyFetchFailed(.noPolicyReceived) == .deliverStatus(ComplianceStatusReport(account: alice, status: .notCompliant, enrollmentStatus: .noPolicyReceived), tokens: nil))
    }

    @Test func firstPolicyAppliedRequiresARestartFromAStoredState() throws {
        var machine = RemediationStateMachine.at("applyingPolicy")
        let action = machine.policyApplied()
        #expect(action == .restartApp(alice))
        #expect(machine.stateName == "awaitingRestart")
        #expect(machine.takeEvents() == [.restartRequired(alice)])
        // The process restarts: rebuild from the stored JSON and resume.
        let stored = machine.snapshot.json.encoded()
        var rebuilt = RemediationStateMachine(restoring: try .init(json: try JSONValue.parse(stored)))
        #expect(rebuilt.resumed() == .reportCompliance(alice))
    }

    @Test func laterPolicyAppliedReportsWithoutRestart() {
        var machine = RemediationStateMachine.at("applyingPolicy", firstPolicy: false)
        #expect(machine.policyApplied() == .reportCompliance(alice))
    }

    @Test func appRestartedInProcessReportsCompliance() {
        var machine = RemediationStateMachine.at("awaitingRestart")
        #expect(machine.appRestarted() == .reportCompliance(alice))
    }

    @Test func complianceReportedRetriesTheTokenRequest() {
        var machine = RemediationStateMachine.at("reportingCompliance")
        #expect(machine.complianceReported() == .retryTokenRequest(alice))
    }

    @Test func retriedTokenSuccessIsCompliantWithTheTokens() {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        let tokens = tokenSet()
        let action = machine.retriedTokenRequestCompleted(.success(tokens))
        let report = ComplianceStatusReport(account: alice, status: .compliant)
        #expect(action == .deliverStatus(report, tokens: tokens))
        #expect(machine.snapshot.json["run"] == .null)  // stored as idle: delivered at most once
        #expect(machine.takeEvents() == [.compliance(report)])
        #expect(machine.statusDelivered() == .none)
        #expect(machine.stateName == "idle")
    }

    @Test func failureAfterPolicyWasAppliedWipesBeforeTheStatus() {
        var machine = RemediationStateMachine.at("reportingCompliance")
        let action = machine.complianceReportFailed(.policyEndPointNetworkFailure)
        #expect(action == .startWipe(alice, .remediationFailed))
        let delivered = machine.wipeStarted()
        #expect(delivered == .deliverStatus(ComplianceStatusReport(account: alice, status: .networkFailure, enrollmentStatus: .policyEndPointNetworkFailure), tokens: nil))
        #expect(!machine.holdsManagedData(alice))
    }

    @Test func retriedProtectionPolicyRequiredIsNotCompliantAndWipes() {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        let details = ProtectionPolicyRequired(serverError: serverError("unauthorized_client", suberror: "protection_policy_required"))
        #expect(machine.retriedTokenRequestCompleted(.failure(.protectionPolicyRequired(details))) == .startWipe(alice, .remediationFailed))
    }

    @Test func repeatCallsForTheSameAccountAreCoalesced() {
        var machine = RemediationStateMachine.at("enrolling")
        #expect(machine.remediate(account("ALICE@contoso.com"), silent: true) == .none)
        #expect(machine.queuedAccounts.isEmpty)
    }

    @Test func otherAccountsQueueAndRunAfterTheStatus() {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        let queued = machine.remediate(bob, silent: false)
        #expect(queued == .none)
        #expect(machine.queuedAccounts == [bob])
        _ = machine.retriedTokenRequestCompleted(.failure(.networkFailure("reset")))  // wipe first: alice held managed data
        _ = machine.wipeStarted()
        // alice's failure freed the managed slot, so bob runs.
        let next = machine.statusDelivered()
        #expect(next == .acquireMAMToken(bob, silent: false))
    }

    /// The queued account starts; the composed machine, which owns the one-managed-account
    /// rule, then tells it the slot is held (alice is managed) and it ends with 227.
    @Test func aQueuedAccountStartsAndGets227WhenTheSlotIsHeld() {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        _ = machine.remediate(bob, silent: true)
        _ = machine.retriedTokenRequestCompleted(.success(tokenSet()))
        _ = machine.takeEvents()
        let next = machine.statusDelivered()
        #expect(next == .acquireMAMToken(bob, silent: true))
        #expect(machine.snapshot.json["queue"] == [])
        let report = ComplianceStatusReport(
            account: bob, status: .notCompliant, enrollmentStatus: .singleManagedAccountMode, detail: "alice@contoso.com is the managed account of this app.")
        #expect(machine.managedElsewhere(by: alice) == .deliverStatus(report, tokens: nil))
        #expect(report.message.contains("SingleManagedAccountMode 227"))
        #expect(machine.takeEvents() == [.compliance(report)])
        #expect(machine.statusDelivered() == .none)
    }

    @Test func accountRemovedEndsItsRemediationWithoutTokens() {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        let action = machine.accountRemoved(alice)
        guard case .deliverStatus(let report, nil) = action else { Issue.record("no status"); return }
        #expect(report.status == .notCompliant)
        #expect(machine.retriedTokenRequestCompleted(.success(tokenSet())) == .none)  // late
        #expect(!machine.holdsManagedData(alice))
    }

    @Test func lateEventsWhenIdleAreIgnored() {
        var machine = RemediationStateMachine()
        #expect(machine.mamTokenAcquired() == .none)
        #expect(machine.policyApplied() == .none)
        #expect(machine.statusDelivered() == .none)
    }

    @Test(arguments: ["acquiringMAMToken", "enrolling", "awaitingPolicy", "applyingPolicy", "awaitingRestart", "reportingCompliance", "retryingTokenRequest"])
    func snapshotsRoundTripAndResume(step: String) throws {
        let machine = RemediationStateMachine.at(step)
        let json = try JSONValue.parse(machine.snapshot.json.encodedString())
        let snapshot = try RemediationStateMachine.Snapshot(json: json)
        #expect(snapshot == machine.snapshot)
        var rebuilt = RemediationStateMachine(restoring: snapshot)
        let expected: RemediationStateMachine.Action = switch step {
        case "acquiringMAMToken": .acquireMAMToken(alice, silent: true)
        case "enrolling": .enroll(alice)
        case "awaitingPolicy": .fetchPolicy(alice)
        case "applyingPolicy": .applyPolicy(alice, policy())
        case "retryingTokenRequest": .retryTokenRequest(alice)
        default: .reportCompliance(alice)
        }
        #expect(rebuilt.resumed() == expected)
    }

    @Test func reportsCarryActionableText() {
        for status in ComplianceStatus.allCases {
            let report = ComplianceStatusReport(account: alice, status: status)
            #expect(!report.title.isEmpty)
            #expect(report.message.contains("alice@contoso.com"))
        }
    }
}
