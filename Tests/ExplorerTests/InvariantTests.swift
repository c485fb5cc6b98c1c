import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// Each invariant, broken on purpose: a real transition from a normal run, with one thing
/// changed that the invariant forbids. Each check must name its invariant; the untouched
/// transition breaks none.
@Suite struct InvariantTests {
    @Test func theNormalRunsOfEveryScriptBreakNothing() {
        for index in universe.scripts.indices {
            let log = ScriptRun(universe: universe).run(index)
            #expect(log.violations.isEmpty, "\(universe.scripts[index].name): \(log.violations)")
            #expect(log.transitions.count > 5)
        }
    }

    @Test func one_aTokenForAnExcludedAccount() throws {
        let log = run("dave is excluded")
        let (last, facts) = try #require(log.transitions.last.map { ($0.transition, $0.facts) })
        var transition = last
        #expect(broken(transition, facts).isEmpty)
        let tokens = TokenSet(accessToken: SecretToken("at"), expiresOn: Instant(millisecondsSinceEpoch: 1), scopes: [universe.apiScope])
        let answer = ComplianceMachine.TokenAnswer(
            account: dave, scopes: [universe.apiScope], status: .compliant, tokens: tokens, failure: nil, report: nil, remediated: false)
        transition.actions.append(.reply(ComplianceMachine.Ticket(999), .token(answer)))
        #expect(broken(transition, facts) == [1])
    }

    @Test func two_filesLeftUnderTheOtherSpelling() throws {
        let log = run("josé signs in under one spelling")
        let (transition, facts) = try #require(transition(in: log) { if case .wipeFinished = $0 { true } else { false } })
        #expect(broken(transition, facts).isEmpty)
        var left = facts
        left.dataKeys.insert(Array("jose\u{301}@contoso.com".utf8))  // NFD bytes: a second directory
        #expect(broken(transition, left) == [2])
        var tokens = facts
        tokens.tokenKeys.insert(Array("JOSE\u{301}@contoso.com".utf8))
        #expect(broken(transition, tokens).contains(2))
    }

    @Test func three_twoManagedAccounts() throws {
        let log = run("josé waits for the slot")
        let entry = try firstCleanTransition(in: log) { $0.after.accounts[josé]?.enrollment.phase == .waitingForSlot }
        var transition = entry.transition
        transition.after = try rebuilt(transition.after, josé) { $0["enrollment"] = enrolledSnapshot(josé) }
        #expect(broken(transition, entry.facts).contains(3))
    }

    @Test func four_aSecondReportAndACompliantReportWithoutEnrollment() throws {
        let log = run("alice remediates")
        let (transition, facts) = try #require(transition(in: log) { if case .compliance = $0 { true } else { false } })
        #expect(broken(transition, facts).isEmpty)
        var twice = facts
        twice.reportsDelivered[ComplianceInvariants.storeKey(alice)] = 2
        #expect(broken(transition, twice) == [4])
        var unenrolled = transition
        unenrolled.after = try rebuilt(transition.after, alice) { $0["enrollment"] = EnrollmentStateMachine(account: alice).snapshot.json }
        #expect(broken(unenrolled, facts).contains(4))
    }

    @Test func five_aWipeCommittedDoneRunsAgain() throws {
        let log = run("alice remediates")
        let entry = try firstCleanTransition(in: log) { $0.actions.contains { if case .removeTokens = $0 { true } else { false } } }
        var facts = entry.facts
        facts.wipesCommittedDone.insert(.init(key: ComplianceInvariants.storeKey(alice), generation: 1))
        #expect(broken(entry.transition, facts) == [5])
    }

    @Test func six_anEnrollAnswerWithoutItsNotification() throws {
        let log = run("alice remediates")
        let entry = try firstCleanTransition(in: log) { $0.fedMAMAnswer?.kind == .enrollment }
        var transition = entry.transition
        transition.actions = transition.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.events.removeAll { if case .enrollment = $0 { true } else { false } }
            return .persist(changes)
        }
        #expect(broken(transition, entry.facts) == [6])
    }

    @Test func seven_aFirstPolicyWithoutARestart() throws {
        let log = run("josé signs in under one spelling")  // registration: not a remediation
        let (found, facts) = try #require(transition(in: log) { if case .policyApplied = $0 { true } else { false } })
        #expect(broken(found, facts).isEmpty)
        var transition = found
        transition.actions.removeAll { if case .restartApp = $0 { true } else { false } }
        #expect(broken(transition, facts) == [7])
    }

    @Test func eight_aRegistrationWaitingForASlotNobodyHolds() throws {
        let log = run("josé waits for the slot")
        let entry = try #require(log.transitions.first { $0.transition.after.accounts[josé]?.enrollment.phase == .waitingForSlot })
        var transition = entry.transition
        transition.after = try rebuilt(transition.after, alice) { $0["enrollment"] = EnrollmentStateMachine(account: alice).snapshot.json }
        #expect(broken(transition, entry.facts).contains(8))
    }

    @Test func nine_aRemovalWipedWithoutUnenrolling() throws {
        let log = run("the allowed list shrinks")
        let (found, facts) = try #require(transition(in: log) { if case .wipeStarted(_, .notAllowed) = $0 { true } else { false } })
        #expect(broken(found, facts).isEmpty)
        var transition = found
        transition.actions = transition.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.events.removeAll { if case .unenroll = $0 { true } else { false } }
            return .persist(changes)
        }
        var unsent = facts
        unsent.unenrollSent = []
        #expect(broken(transition, unsent).contains(9))
    }

    @Test func ten_aSuccessAfterAFailedCommitAndATicketAnsweredTwice() throws {
        let log = run("alice remediates")
        let entry = try firstCleanTransition(in: log) { $0.actions.contains { if case .reply = $0 { true } else { false } } }
        var failed = entry.transition
        failed.persistFailed = true
        #expect(broken(failed, entry.facts).contains(10))
        var facts = entry.facts
        for case .reply(let ticket, _) in entry.transition.actions { facts.answeredTickets.insert(ticket) }
        #expect(broken(entry.transition, facts) == [10])
    }

    @Test func eleven_aTokenCachedAndReturnedForADeclinedScope() throws {
        let log = run("alice remediates")
        let cached = try firstCleanTransition(in: log) { transition in
            transition.actions.contains { action in
                guard case .persist(let changes) = action else { return false }
                return changes.tokens.contains { entry in entry.scopes == [universe.apiScope] }
            }
        }
        var transition = cached.transition
        transition.actions = transition.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.tokens = changes.tokens.map { entry in
                var tokens = entry.tokens
                tokens.scopes = ["openid"]  // the issuer granted none of the entry's own scopes
                return ComplianceMachine.TokenWrite(entry.account, entry.scopes, tokens, entry.environment)
            }
            return .persist(changes)
        }
        #expect(broken(transition, cached.facts) == [11])

        let replied = try firstCleanTransition(in: log) { transition in
            transition.actions.contains { if case .reply(_, .signIn(_, let answer)) = $0 { answer.tokens != nil } else { false } }
        }
        var reply = replied.transition
        reply.actions = reply.actions.map { action in
            guard case .reply(let ticket, .signIn(let signedIn, var answer)) = action else { return action }
            answer.tokens?.scopes = ["openid"]
            return .reply(ticket, .signIn(signedIn: signedIn, answer))
        }
        #expect(broken(reply, replied.facts) == [11])
    }
}

extension InvariantTests {
    /// 12: the remediation of a normal run (with a MAM service), judged as if the app had none.
    @Test func twelve_aMAMCallAndARemediationWithoutAMAMService() throws {
        let log = run("alice remediates")
        let entry = try firstCleanTransition(in: log) { transition in
            transition.actions.contains { if case .callMAM = $0 { true } else { false } }
        }
        var transition = entry.transition
        transition.after.configuration.mamService = false
        #expect(broken(transition, entry.facts) == [12])

        let compliant = try firstCleanTransition(in: log) { transition in
            transition.events.contains { if case .compliance(let report) = $0 { report.status == .compliant } else { false } }
        }
        var reported = compliant.transition
        reported.after.configuration.mamService = false
        #expect(broken(reported, compliant.facts).contains(12))
        let started = try firstCleanTransition(in: log) { transition in
            transition.events.contains { if case .remediationStarted = $0 { true } else { false } }
        }
        var remediating = started.transition
        remediating.after.configuration.mamService = false
        #expect(broken(remediating, started.facts).contains(12))
    }
}

extension InvariantTests {
    /// 13: tokens cached and returned for alice, with mallory's identity put in.
    @Test func thirteen_tokensOfAnotherPersonCachedAndReturned() throws {
        let log = run("alice remediates")
        let cached = try firstCleanTransition(in: log) { transition in
            transition.actions.contains { if case .persist(let changes) = $0 { !changes.tokens.isEmpty } else { false } }
        }
        var transition = cached.transition
        transition.actions = transition.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.tokens = changes.tokens.map { entry in
                var tokens = entry.tokens
                tokens.identity = TokenIdentity(subject: "oid-mallory.tenant", username: "mallory@contoso.com")
                return ComplianceMachine.TokenWrite(entry.account, entry.scopes, tokens, entry.environment)
            }
            return .persist(changes)
        }
        #expect(broken(transition, cached.facts) == [13])

        // The username is alice's, the person is not the one recorded.
        var reassigned = cached.transition
        reassigned.actions = reassigned.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.tokens = changes.tokens.map { entry in
                var tokens = entry.tokens
                tokens.identity = TokenIdentity(subject: "oid-newcomer.tenant", username: entry.account.upn)
                return ComplianceMachine.TokenWrite(entry.account, entry.scopes, tokens, entry.environment)
            }
            return .persist(changes)
        }
        #expect(broken(reassigned, cached.facts) == [13])
    }
}
