import Testing
@testable import ComplianceCore
@testable import Explorer

/// The composed machine, event in, actions out, through the explorer's world with normal
/// answers: each defect the composed machine fixes, at the level of the pure core.
@Suite struct ComposedMachineTests {
    /// Lines of the log that say `text`.
    static func lines(_ log: ScriptRun.Log, _ text: String) -> [String] {
        log.lines.filter { $0.contains(text) }
    }

    @Test func twoSpellingsOfJoséAreOneAccountAndAWipeUnderOneLeavesNothingUnderTheOther() {
        let log = run("josé signs in under one spelling")
        #expect(log.violations.isEmpty)
        #expect(log.final.machine.knownAccounts == [josé])
        #expect(josé == joséNFD && josé.key == joséNFD.key && Array(josé.key.utf8) == Array(joséNFD.key.utf8))
        #expect(log.final.world.vault.isEmpty && log.final.world.tokens.isEmpty)
        #expect(log.lines.contains("reply: deregistered(104, wiped true)"))
    }

    @Test func theExcludingPolicyOfDavesOwnSignInRefusesHimAndFreesTheSlot() {
        let log = run("dave is excluded")
        let refused = Self.lines(log, "reply: refused(signInRefused: dave@contoso.com")
        #expect(refused.count == 1)
        #expect(log.lines.contains("reply: signIn(alice@contoso.com signedIn true Compliant(0))"), "alice is not refused with 227: \(log.lines)")
        let unenroll = log.lines.firstIndex { $0.hasPrefix("event: unenroll dave@contoso.com") }
        let wipe = log.lines.firstIndex { $0.hasPrefix("event: wipeStarted dave@contoso.com") }
        #expect(unenroll != nil && wipe != nil && unenroll! < wipe!, "unenrolled before the wipe")
    }

    @Test func aRegistrationAwaitingItsRetryDoesNotHoldTheSlot() throws {
        // josé's interactive grant, his MAM token's refresh, then his enroll answers 503.
        let log = run("josé registers", answers: [.normal, .normal, .failure(.mamServerError)])
        #expect(log.violations.isEmpty)
        #expect(log.lines.contains("reply: signIn(alice@contoso.com signedIn true Compliant(0))"), "\(log.lines)")
        #expect(log.final.machine.accounts[josé]?.enrollment.phase == .waitingForSlot)
    }

    @Test func retriesBeginAgainOnceTheManagedAccountLeaves() {
        let log = run("josé waits for the slot")
        #expect(log.lines.contains { $0.hasPrefix("event: enrollment josé@contoso.com: SingleManagedAccountMode(227)") })
        let after = log.lines.split(separator: "> deregister alice").last ?? []
        #expect(after.contains { $0.hasPrefix("event: enrollment josé@contoso.com: NewPoliciesReceived(100)") }, "\(after)")
        #expect(log.final.machine.accounts[josé]?.enrollment.phase == .enrolled)
    }

    @Test func aCheckInAnswered103IsOneNotification() {
        let log = run("the policy is unassigned")
        let policy = Self.lines(log, "event: policy alice@contoso.com")
        #expect(policy.count == 2 && policy.allSatisfy { $0.contains("NoPolicyReceived(103)") }, "\(policy)")
    }

    @Test func aFirstPolicyByRegistrationRestartsTheApp() {
        let log = run("josé signs in under one spelling")
        let restart = log.lines.firstIndex(of: "restart: josé@contoso.com")
        let policy = log.lines.firstIndex { $0.hasPrefix("event: policyApplied josé@contoso.com") }
        #expect(restart != nil && policy != nil && policy! < restart!)
    }

    @Test func deregisterThenDeregisterWithWipeWipes() {
        let log = run("deregister, then deregister with wipe")
        #expect(log.lines.contains("reply: deregistered(104, wiped false)"))
        #expect(log.lines.last == "reply: deregistered(104, wiped true)")
        #expect(log.final.world.vault.isEmpty)
    }

    @Test func deregisterThenRemediateEnrollsAgainAndChecksIn() {
        let log = run("deregister, then remediate again")
        #expect(log.lines.contains("reply: remediation(alice@contoso.com Compliant(0))"))
        #expect(log.final.machine.accounts[alice]?.enrollment.phase == .enrolled)
        let after = log.lines.split(separator: "> remediate alice").last ?? []
        #expect(after.contains { $0.hasPrefix("event: policy alice@contoso.com") }, "check-ins run again: \(after)")
    }

    @Test func aRemediationRefusedWith227StartsBeforeItReports() {
        let log = run("josé is targeted for CA")
        let started = log.lines.firstIndex { $0.hasPrefix("event: remediationStarted josé@contoso.com") }
        let report = log.lines.firstIndex { $0.hasPrefix("event: compliance josé@contoso.com: NotCompliant(1)") && $0.contains("227") }
        #expect(started != nil && report != nil && started! < report!, "\(log.lines)")
    }

    /// A token the cache holds is answered with nothing to commit: no persist, only the reply.
    @Test func aCacheHitCommitsNothing() throws {
        let final = run("the policy is unassigned", timers: 0).final
        var machine = final.machine
        let ticket = ComplianceMachine.Ticket(9_999)
        machine.acquireToken(alice, scopes: [universe.apiScope], interactive: false, remediate: true, ticket: ticket, now: final.world.now)
        guard case .readTokenCache(let step, let account, let scopes, let environment) = machine.nextAction() else {
            Issue.record("a token request reads the cache first")
            return
        }
        let entry = final.world.cacheEntry(account, scopes: scopes, environment: environment)
        #expect(entry.accessToken != nil, "alice's token for the API is cached after her remediation")
        machine.completed(step, .cache(entry), now: final.world.now)
        var actions: [ComplianceMachine.Action] = []
        while true {
            let action = machine.nextAction()
            if case .none = action { break }
            actions.append(action)
        }
        #expect(actions.count == 1, "\(actions)")
        guard case .reply(ticket, .token(let answer)) = actions.first else {
            Issue.record("the one action is the reply: \(actions)")
            return
        }
        #expect(answer.tokens != nil && answer.status == .compliant)
    }

    @Test func anAdminWipeLeavesNoComplianceStatus() {
        let log = run("an admin wipe")
        #expect(log.final.machine.accounts[alice]?.compliance == nil)
        #expect(log.final.machine.accounts[alice]?.wipe.isFinished == true)
        #expect(log.final.world.vault.isEmpty)
    }

    @Test func theSnapshotOfEveryFinalStateRestoresToAnEqualMachine() throws {
        for index in universe.scripts.indices {
            let machine = ScriptRun(universe: universe).run(index).final.machine
            let restored = try ComplianceMachine(restoring: machine.stored, configuration: machine.configuration)
            #expect(restored.stored == machine.stored, "\(universe.scripts[index].name)")
        }
    }
}

/// The id_token's identity ties tokens to the account's person (invariant 13).
@Suite struct AccountIdentityTests {
    @Test func aSignInAsAnotherPersonKeepsNothingAndSaysWho() throws {
        let log = run("josé signs in under one spelling", answers: [.failure(.anotherPerson)])
        #expect(log.violations.isEmpty, "\(log.violations)")
        let reply = try #require(log.transitions.lazy.flatMap(\.transition.actions).compactMap { action -> ComplianceMachine.TokenAnswer? in
            if case .reply(_, .signIn(_, let answer)) = action { return answer }
            return nil
        }.first)
        guard case .accountMismatch(let mismatch)? = reply.failure else {
            Issue.record("the sign-in fails with accountMismatch: \(String(describing: reply.failure))")
            return
        }
        #expect(mismatch.found == "mallory@contoso.com" && mismatch.reason == .username && reply.tokens == nil && reply.status == .interactionRequired)
        #expect(reply.failure?.message.contains("not josé@contoso.com") == true, "\(reply.failure?.message ?? "")")
        let cached = log.transitions.flatMap(\.transition.actions).contains { action in
            if case .persist(let changes) = action { !changes.tokens.isEmpty } else { false }
        }
        #expect(!cached, "nothing of mallory's answer is kept")
        #expect(log.final.machine.accounts[josé]?.subject == nil)
    }

    @Test func theFirstSignInRecordsThePersonAndAWipeForgetsIt() {
        let log = run("alice remediates, then deregisters with wipe")
        #expect(log.violations.isEmpty, "\(log.violations)")
        let recorded = log.transitions.first { $0.transition.after.accounts[alice]?.subject != nil }?.transition.after.accounts[alice]?.subject
        #expect(recorded == "oid-alice@contoso.com.tenant")
        #expect(log.final.machine.accounts[alice]?.subject == nil, "the wipe forgets who signed in")
    }

    @Test func aRefreshForANewPersonUnderTheSameUPNIsRefused() throws {
        // josé signs in; the MAM token of his registration comes by refresh, for a newcomer
        // under his UPN: refused (nothing cached for it), the registration needs him again (203).
        let log = run("josé signs in under one spelling", answers: [.normal, .failure(.upnReassigned)])
        #expect(log.violations.isEmpty, "\(log.violations)")
        #expect(log.lines.contains { $0.hasPrefix("event: enrollment josé@contoso.com: AuthRequired(203)") }, "\(log.lines)")
        let refusal = try #require(log.transitions.first { $0.transition.after.accounts[josé]?.enrollment.phase == .awaitingRetry })
        let mamTokens = refusal.transition.actions.contains { action in
            if case .persist(let changes) = action { changes.tokens.contains { $0.scopes.contains(RemediationStateMachine.mamScope) } } else { false }
        }
        #expect(!mamTokens, "the newcomer's MAM token is not cached")
        #expect(refusal.transition.after.accounts[josé]?.subject == "oid-josé@contoso.com.tenant", "the person recorded stays")
    }
}
