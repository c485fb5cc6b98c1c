import JSON
import Testing
@testable import ComplianceCore

@Suite struct AllowedAccountsStateMachineTests {
    func signedIn(_ accounts: [AccountID], allowed: AllowedAccounts = .anyone) -> AllowedAccountsStateMachine {
        var machine = AllowedAccountsStateMachine(allowed: allowed)
        for account in accounts {
            _ = machine.signedIn(account)
        }
        return machine
    }

    @Test func nullListAllowsEveryone() {
        var machine = AllowedAccountsStateMachine()
        #expect(machine.signInRequested(carol) == .allowSignIn(carol))
    }

    @Test func refusesAnAccountNotOnTheList() {
        var machine = AllowedAccountsStateMachine(allowed: AllowedAccounts([alice]))
        let refusal = SignInRefusal(code: .notAllowed, account: bob, allowed: AllowedAccounts([alice]))
        #expect(machine.signInRequested(bob) == .refuseSignIn(refusal))
        #expect(refusal.message.contains("bob@contoso.com is not allowed"))
        #expect(machine.signInRequested(account("ALICE@contoso.com")) == .allowSignIn(alice))
    }

    @Test func signedInIsPersisted() {
        var machine = AllowedAccountsStateMachine()
        let before = machine.snapshot
        let action = machine.signedIn(alice)
        #expect(action == .none)
        #expect(machine.snapshot != before)
        #expect(machine.signedInAccounts == [alice])
    }

    @Test func listChangeSignsOutAndWipesAccountsNoLongerAllowed() {
        var machine = signedIn([alice, bob])
        let newList = AllowedAccounts([alice])
        let action = machine.allowedAccountsReceived(newList)
        #expect(action == .signOutAndWipe([bob]))
        #expect(machine.stateName == "removing")
        #expect(machine.takeEvents() == [.allowedAccountsChanged(old: .anyone, new: newList, removed: [bob])])
        #expect(!machine.mayReceiveToken(bob))
        #expect(machine.mayReceiveToken(alice))
    }

    @Test func listChangeWithoutRemovalsStaysTracking() {
        var machine = signedIn([alice])
        let action = machine.allowedAccountsReceived(AllowedAccounts([alice, bob]))
        #expect(action == .none)
        #expect(machine.stateName == "tracking")
        #expect(machine.takeEvents().count == 1)
    }

    @Test func unchangedListDoesNothing() {
        var machine = signedIn([alice], allowed: AllowedAccounts([alice]))
        #expect(machine.allowedAccountsReceived(AllowedAccounts([account("Alice@Contoso.com")])) == .none)
        #expect(machine.takeEvents().isEmpty)
    }

    @Test func accountRemovedOfTheLastPendingReturnsToTracking() {
        var machine = signedIn([alice, bob])
        _ = machine.allowedAccountsReceived(AllowedAccounts([]))
        #expect(machine.accountRemoved(alice) == .signOutAndWipe([bob]))
        #expect(machine.stateName == "removing")
        let action = machine.accountRemoved(bob)
        #expect(action == .none)
        #expect(machine.stateName == "tracking")
        #expect(machine.signedInAccounts.isEmpty)
        #expect(machine.accountRemoved(bob) == .none)  // late duplicate
    }

    @Test func aNotAllowedSignInThatCompletedAnywayIsRemoved() {
        var machine = AllowedAccountsStateMachine(allowed: AllowedAccounts([alice]))
        let action = machine.signedIn(bob)
        #expect(action == .signOutAndWipe([bob]))
    }

    @Test func signedOutForgetsTheAccount() {
        var machine = signedIn([alice])
        let action = machine.signedOut(alice)
        #expect(action == .none)
        #expect(machine.signedInAccounts.isEmpty)
        #expect(machine.signedOut(alice) == .none)
    }

    @Test func snapshotRoundTripsAndResumesPendingRemovals() throws {
        var machine = signedIn([alice, bob])
        _ = machine.allowedAccountsReceived(AllowedAccounts([alice]))
        let json = try JSONValue.parse(machine.snapshot.json.encoded())
        var rebuilt = AllowedAccountsStateMachine(restoring: try .init(json: json))
        #expect(rebuilt.allowed == AllowedAccounts([alice]))
        #expect(rebuilt.resumed() == .signOutAndWipe([bob]))
    }
}

@Suite struct SignInRefusalTests {
    @Test func anAccountBeingRemovedIsRefusedWithItsOwnReason() {
        var machine = AllowedAccountsStateMachine()
        _ = machine.signedIn(bob)
        _ = machine.allowedAccountsReceived(AllowedAccounts([alice]))
        _ = machine.allowedAccountsReceived(.anyone)  // bob is allowed again but still being removed
        guard case .refuseSignIn(let refusal) = machine.signInRequested(bob) else { Issue.record("not refused"); return }
        #expect(refusal.code == .removalInProgress)
        #expect(refusal.message.contains("being signed out"))
    }
}
