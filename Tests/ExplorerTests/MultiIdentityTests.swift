import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// The app's identities (setUIPolicyIdentity, setProcessIdentity, identitySwitchRequired):
/// pure decisions, the MultiIdentity universe explored, and invariant 15 broken on purpose.
@Suite struct MultiIdentityTests {
    static let universe = Universe.withMultiIdentity
    static let now = Instant(millisecondsSinceEpoch: 1_000)

    /// The final machine of the MultiIdentity script starting with `prefix`, run normally.
    static func final(_ prefix: String) -> ComplianceMachine {
        let index = universe.scripts.firstIndex { $0.name.hasPrefix(prefix) }!
        return ScriptRun(universe: universe).run(index).final.machine
    }

    /// Takes a machine's actions until none, committing every persist; returns the replies
    /// and the committed events.
    static func drain(_ machine: inout ComplianceMachine) -> (replies: [ComplianceMachine.Reply], events: [ComplianceEvent]) {
        var replies: [ComplianceMachine.Reply] = []
        var events: [ComplianceEvent] = []
        while true {
            switch machine.nextAction() {
            case .none: return (replies, events)
            case .persist(let changes):
                events += changes.events
                machine.persisted()
            case .reply(_, let reply): replies.append(reply)
            default: continue
            }
        }
    }

    /// alice managed (enrolled under a policy): the script's end state, with the app's
    /// identities as at launch (unset).
    static func aliceManaged() throws -> ComplianceMachine {
        var machine = final("alice is managed")
        try #require(machine.managedAccount == alice)
        machine.identities = AppIdentities()
        return machine
    }

    static func switchUI(_ machine: inout ComplianceMachine, _ identity: AccountID?, cancels: Bool = false) -> (IdentitySwitch?, [ComplianceEvent]) {
        machine.setUIPolicyIdentity(identity, userCancels: cancels, ticket: .init(900), now: now)
        let (replies, events) = drain(&machine)
        guard case .identity(let outcome)? = replies.first else { return (nil, events) }
        return (outcome, events)
    }

    @Test func atLaunchAMultiIdentityAppRunsUnderNoUserAndReadsWhatItHasNotNamed() throws {
        var machine = try Self.aliceManaged()
        machine.identities = AppIdentities()
        #expect(machine.effectiveUIIdentity == nil, "MultiIdentity: identities are nil at launch")
        #expect(machine.dataReadRefusal(alice) == nil, "no identity set: the SDK enforces none")
        var single = machine
        single.configuration.multiIdentity = false
        #expect(single.effectiveUIIdentity == alice, "not MultiIdentity: the process identity is the enrolled user")
    }

    @Test func switchesAnswerAsTheHeaderSays() throws {
        var machine = try Self.aliceManaged()
        let (toJosé, _) = Self.switchUI(&machine, josé)
        #expect(toJosé?.result == .success && toJosé?.conditionalLaunch == ConditionalLaunch.none,
            "josé, registered while alice is managed, is unmanaged with unrestricted policy settings")
        #expect(!machine.dataProtectionPolicy(for: josé).isManaged, "and his policy object agrees")
        #expect(Self.switchUI(&machine, dave).0?.result == .notAllowed, "dave is not in the allowed accounts")
        let carol = try AccountID("carol@fabrikam.com")
        #expect(Self.switchUI(&machine, carol).0?.result == .notAllowed, "the allowed list names alice and josé only")
        let (toAlice, _) = Self.switchUI(&machine, alice)
        #expect(toAlice?.result == .success && toAlice?.conditionalLaunch == ConditionalLaunch.none)
        #expect(machine.effectiveUIIdentity == alice && machine.dataReadRefusal(alice) == nil)
        let (noUser, _) = Self.switchUI(&machine, nil)
        #expect(noUser?.result == .success && machine.effectiveUIIdentity == nil)
        #expect(machine.dataReadRefusal(alice) == nil, "the UI identity doesn't affect file tasks")
    }

    @Test func managedDataFollowsTheProcessIdentityNotTheUIs() throws {
        var machine = try Self.aliceManaged()
        func setProcess(_ identity: AccountID?) {
            machine.setProcessIdentity(identity, ticket: .init(903), now: Self.now)
            _ = Self.drain(&machine)
        }
        setProcess(nil)
        #expect(machine.effectiveFileIdentity == nil)
        #expect(machine.dataReadRefusal(alice)?.code == .identityMismatch, "alice's managed data under the process identity no user")
        #expect(machine.dataReadRefusal(alice)?.message.contains("setProcessIdentity") == true)
        #expect(machine.dataReadRefusal(dave) == nil, "unmanaged data reads under any identity")
        _ = Self.switchUI(&machine, alice)
        #expect(machine.dataReadRefusal(alice)?.code == .identityMismatch, "the UI identity alice does not open her files")
        setProcess(alice)
        _ = Self.switchUI(&machine, nil)
        #expect(machine.effectiveFileIdentity == alice && machine.dataReadRefusal(alice) == nil, "the process identity alice does")
    }

    @Test func aPINTheUserCancelsIsCanceledAndTheSDKAsksForNoUser() throws {
        var machine = try Self.aliceManaged()
        machine.accounts[alice]?.policy?.document["pinRequired"] = true
        let (canceled, events) = Self.switchUI(&machine, alice, cancels: true)
        #expect(canceled?.result == .canceled && canceled?.conditionalLaunch == .pin)
        #expect(events.contains(.identitySwitchRequired(nil, .cancelConditionalLaunch)))
        #expect(machine.identities.ui == .noUser && machine.dataReadRefusal(alice) == nil, "files do not follow the UI")
        let (entered, _) = Self.switchUI(&machine, alice)
        #expect(entered?.result == .success && entered?.conditionalLaunch == .pin)
        let (again, _) = Self.switchUI(&machine, alice, cancels: true)
        #expect(again?.result == .success && again?.conditionalLaunch == ConditionalLaunch.none, "the identity already in force asks nothing")
    }

    @Test func aProcessIdentityThePolicyDoesNotAllowIsRefused() throws {
        var machine = try Self.aliceManaged()
        _ = Self.switchUI(&machine, nil)
        machine.setProcessIdentity(dave, ticket: .init(901), now: Self.now)
        guard case .refused(let refusal)? = Self.drain(&machine).replies.first else { Issue.record("not refused"); return }
        #expect(refusal.code == .identityNotAllowed)
        machine.setProcessIdentity(alice, ticket: .init(902), now: Self.now)
        #expect(Self.drain(&machine).replies.first?.isSuccess == true)
        #expect(machine.identities.process == .account(alice) && machine.effectiveUIIdentity == nil, "the UI identity set (no user) wins")
    }

    @Test func theAppsRestartUnsetsItsIdentities() throws {
        var machine = try Self.aliceManaged()
        _ = Self.switchUI(&machine, alice)
        machine.appRestarted(now: Self.now)
        _ = Self.drain(&machine)
        #expect(machine.identities == AppIdentities())
    }

    @Test func anExcludedIdentityInForceBecomesNoUserAndTheAppIsTold() {
        let log = ScriptRun(universe: Self.universe).run(Self.universe.scripts.firstIndex { $0.name.hasPrefix("the UI and the process show josé") }!)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let told = log.transitions.flatMap(\.transition.events).contains(.identitySwitchRequired(nil, .accountRemoved))
        #expect(told, "josé left the allowed list while the UI showed him")
        #expect(log.final.machine.identities.ui == .noUser && log.final.machine.identities.process == .noUser)
    }

    @Test func theMultiIdentitySpaceBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 10).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.states > 20_000, "\(report.states) states")
    }

    /// A wipe the disk stopped leaves the account no longer managed with its files and key on
    /// disk: its data must not read while the wipe waits. The script alone, explored to
    /// exhaustion; with the leaving check placed after the managed-account guard in
    /// `dataReadRefusal` (as before the fix), this finds invariant 15.
    @Test func fifteen_noDataReadsWhileAStoppedWipeWaits() async {
        let alone = { var alone = Self.universe; alone.scripts = Self.universe.scripts.filter { $0.name.hasPrefix("alice's wipe stops") }; return alone }()
        #expect(alone.scripts.count == 1)
        let report = await offThePool { Explorer(universe: alone, maxDepth: 60).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted)
    }

    @Test func fifteen_anIdentityInForceThePolicyDoesNotAllow() throws {
        let log = ScriptRun(universe: Self.universe).run(Self.universe.scripts.firstIndex { $0.name.hasPrefix("alice is managed") }!)
        let entry = try firstCleanTransition(in: log) { $0.after.identities.process == .noUser }
        var transition = entry.transition
        transition.after.identities.ui = .account(dave)
        #expect(broken(transition, entry.facts) == [15])
        transition.after.identities.ui = .noUser
        transition.after.identities.process = .account(dave)
        #expect(broken(transition, entry.facts) == [15])
    }

    @Test func fifteen_managedDataReadUnderAnotherIdentity() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        let entry = try firstCleanTransition(in: log) { $0.after.managedAccount == alice }
        var facts = entry.facts
        facts.dataRead = ComplianceInvariants.DataRead(owner: alice, fileIdentity: alice, processIdentityUnset: false)
        #expect(broken(entry.transition, facts).isEmpty)
        facts.dataRead = ComplianceInvariants.DataRead(owner: alice, fileIdentity: nil, processIdentityUnset: true)
        #expect(broken(entry.transition, facts).isEmpty, "before the app named any identity")
        facts.dataRead = ComplianceInvariants.DataRead(owner: alice, fileIdentity: josé, processIdentityUnset: false)
        #expect(broken(entry.transition, facts) == [15])
        facts.dataRead = ComplianceInvariants.DataRead(owner: alice, fileIdentity: nil, processIdentityUnset: false)
        #expect(broken(entry.transition, facts) == [15])
    }

    /// Invariant 20 judges the machine rebuilt after the failed commit, not what the resumed
    /// machine did next: a resumed remediation that fails may remove an identity, as any step.
    @Test func twenty_identitiesLostInTheReloadNotInWhatFollows() throws {
        let log = ScriptRun(universe: Self.universe).run(Self.universe.scripts.firstIndex { $0.name.hasPrefix("the process runs as alice") }!)
        let entry = try firstCleanTransition(in: log) {
            $0.before?.identities.process == .account(alice) && $0.actions.contains { if case .persist = $0 { true } else { false } }
        }
        var transition = entry.transition
        transition.persistFailed = true
        var facts = entry.facts
        facts.identitiesAtReload = AppIdentities()
        #expect(broken(transition, facts) == [20], "the reload fell back to never set")
        facts.identitiesAtReload = transition.before?.identities
        transition.after.identities.process = .noUser
        #expect(!broken(transition, facts).contains(20), "a later step removed it")
    }

    /// `protect` for an account being wiped is refused: its data would otherwise come back
    /// header-only, as an unmanaged account's, while its key is destroyed (issue 36's attack).
    @Test func protectingTheDataOfAnAccountBeingWipedIsRefused() throws {
        let log = ScriptRun(universe: Self.universe).run(Self.universe.scripts.firstIndex { $0.name.hasPrefix("the process runs as alice, she deregisters") }!)
        let before = try #require(log.transitions.last { $0.transition.before?.managedAccount == alice }?.transition.before)
        #expect(before.bufferProtection(for: alice) == .success(.encrypted))
        #expect(before.bufferProtection(for: dave) == .success(.identityHeader))
        #expect(before.bufferProtection(for: nil) == .success(.identityHeader))
        let leaving = try #require(log.transitions.first { $0.transition.after.isLeaving(alice) }?.transition.after)
        guard case .failure(let refusal) = leaving.bufferProtection(for: alice) else { Issue.record("protected while wiped"); return }
        #expect(refusal.code == .conflict && refusal.message.contains("wiped"))
        #expect(leaving.bufferProtection(for: dave) == .success(.identityHeader), "others are untouched")
    }

    /// `loginAndEnrollAccount(nil)`: the managed user, decided by the machine.
    @Test func aSignInWithoutAnAccountSignsInTheManagedUser() throws {
        #expect(try Self.aliceManaged().accountForSignInWithoutAccount() == .success(alice))
        guard case .failure(let refusal) = ComplianceMachine(configuration: Self.universe.configuration).accountForSignInWithoutAccount() else {
            Issue.record("an app with nobody answered an account"); return
        }
        #expect(refusal.code == .accountRequired && refusal.message.contains("no account is managed or registered"))
    }
}
