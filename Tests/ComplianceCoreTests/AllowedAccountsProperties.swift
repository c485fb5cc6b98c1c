import PropertyBased
import Testing
@testable import ComplianceCore

@Suite struct AllowedAccountsProperties {
    @Test func signedInAccountsEndUpAllowedAndRefusedOnesGetNoToken() async {
        await propertyCheck(count: 200, input: choiceLists) { list in
            var choices = Choices(list)
            var machine = AllowedAccountsStateMachine()
            var violations = Violations(AllowedAccountsStateMachine.documentedTransitions)
            let accounts = [alice, bob, carol]
            let lists = [AllowedAccounts.anyone, AllowedAccounts([alice]), AllowedAccounts([bob, carol]), AllowedAccounts([])]
            var toRemove: [AccountID] = []

            func run(_ body: (inout AllowedAccountsStateMachine) -> AllowedAccountsStateMachine.Action) {
                var from = machine.stateName
                var action = body(&machine)
                violations.transition(from, machine.stateName)
                while true {
                    switch action {
                    case .signOutAndWipe(let accounts):
                        for account in accounts {
                            violations.check(!machine.mayReceiveToken(account), "\(account) being removed may still get tokens")
                            if !toRemove.contains(account) { toRemove.append(account) }
                        }
                        return
                    case .refuseSignIn(let refusal):
                        violations.check(!machine.mayReceiveToken(refusal.account), "refused \(refusal.account) but tokens allowed")
                        return
                    case .allowSignIn(let account):
                        violations.check(machine.allowed.allows(account), "allowed \(account) outside \(machine.allowed)")
                        from = machine.stateName
                        action = machine.signedIn(account)
                        violations.transition(from, machine.stateName)
                    case .none:
                        return
                    }
                }
            }

            for _ in 0..<40 {
                switch choices.next(4) {
                case 0: run { $0.signInRequested(choices.pick(accounts)) }
                case 1: run { $0.allowedAccountsReceived(choices.pick(lists)) }
                case 2: run { $0.signedOut(choices.pick(accounts)) }
                default:
                    if !toRemove.isEmpty {
                        let account = toRemove.removeFirst()
                        run { $0.accountRemoved(account) }
                    }
                }
            }
            while !toRemove.isEmpty {
                let account = toRemove.removeFirst()
                run { $0.accountRemoved(account) }
            }
            #expect(violations.messages.isEmpty, "\(violations.messages)")
            #expect(machine.stateName == "tracking")
            for account in machine.signedInAccounts {
                #expect(machine.allowed.allows(account), "\(account) still signed in though not allowed by \(machine.allowed)")
            }
        }
    }
}
