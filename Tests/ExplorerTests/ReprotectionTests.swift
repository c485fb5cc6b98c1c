import Testing
@testable import ComplianceCore
@testable import Explorer

/// Re-protection (``ComplianceMachine/Reprotection``): the machine asks for the managed
/// account's plain files to be encrypted when a policy requiring encryption comes into force,
/// holds the step's replies until they are, retries after a refused disk at the next event,
/// and finishes at start what a crash cut short. Invariant 22 checks the world.
@Suite struct ReprotectionTests {
    static let name = "alice's files are plain until"

    /// Drives the re-protection script as ``ScriptRun`` does, with `answer` choosing each I/O
    /// step's answer class (nil: the normal one), and `crashAfterEncryptAsked` crashing the
    /// process once the encryption was asked for, before it is answered.
    static func drive(
        timers: Int = 2, crashAfterEncryptAsked: Bool = false, _ answer: (ComplianceMachine.Action) -> Answer? = { _ in nil }
    ) -> (state: ExploreState, steps: [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)]) {
        var state = ExploreState(universe: universe)
        state.budget.timers = timers
        state.budget.failures = 5
        state.budget.crashes = crashAfterEncryptAsked ? 1 : 0
        var steps: [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)] = []
        func take(_ event: ExploreEvent) { steps.append(state.apply(event, in: universe)) }
        take(.choose(script(name), name))
        var crashed = false
        for _ in 0..<500 {
            let events = state.events(in: universe)
            if state.restartAsked != nil { take(.restartAnswered(appHandlesRestart: true)); continue }
            if crashAfterEncryptAsked, !crashed, state.pending.contains(where: { if case .encryptPlainFiles = $0 { true } else { false } }) {
                crashed = true
                take(.crash)
                continue
            }
            let idle = state.pending.isEmpty && state.openTickets.isEmpty
            if idle, let command = events.first(where: { if case .command = $0 { true } else if case .admin = $0 { true } else { false } }) {
                take(command)
                continue
            }
            if let action = state.pending.first, let step = ExploreState.step(of: action) {
                take(.complete(step, answer(action) ?? .normal))
                continue
            }
            if events.contains(.timer) { take(.timer); continue }
            break
        }
        return (state, steps)
    }

    static func encryptAsked(_ transition: ComplianceInvariants.Transition) -> Bool {
        transition.actions.contains { if case .encryptPlainFiles = $0 { true } else { false } }
    }

    static func reprotected(_ transition: ComplianceInvariants.Transition) -> Bool {
        transition.actions.contains { action in
            guard case .persist(let changes) = action else { return false }
            return changes.events.contains { if case .dataReprotected = $0 { true } else { false } }
        }
    }

    @Test func aCheckInThatRequiresEncryptionEncryptsThePlainFilesBeforeItsReply() throws {
        let (state, steps) = Self.drive()
        #expect(steps.allSatisfy { ComplianceInvariants.check($0.0, facts: $0.1).isEmpty })
        #expect(state.world.plainFiles.isEmpty)
        #expect(state.world.vault == [ComplianceInvariants.storeKey(alice)])
        // The check-in's step asks for the encryption and answers nobody yet: the timer's
        // reply comes with the result, after dataReprotected is committed.
        let asked = try #require(steps.firstIndex { Self.encryptAsked($0.0) })
        let checkIn = steps[asked].0
        #expect(checkIn.actions.contains { if case .persist(let changes) = $0 { changes.events.contains { if case .policyApplied = $0 { true } else { false } } } else { false } })
        #expect(!checkIn.actions.contains { if case .reply = $0 { true } else { false } })
        let result = steps[asked + 1].0
        #expect(Self.reprotected(result))
        let persist = try #require(result.actions.firstIndex { if case .persist = $0 { true } else { false } })
        let reply = try #require(result.actions.firstIndex { if case .reply(_, .settled) = $0 { true } else { false } })
        #expect(persist < reply)
        #expect(steps.filter { Self.reprotected($0.0) }.count == 1)
    }

    @Test func twentyTwo_aPlainFileLeftOnceTheStepSettles() throws {
        let (_, steps) = Self.drive()
        let (transition, facts) = try #require(steps.first { Self.reprotected($0.0) })
        #expect(broken(transition, facts).isEmpty)
        var left = facts
        left.plainDataKeys.insert(ComplianceInvariants.storeKey(alice))
        #expect(broken(transition, left) == [22])
    }

    @Test func aRefusedDiskLeavesTheFilesPlainUntilTheNextEventTriesAgain() throws {
        var refusals = 1
        let (state, steps) = Self.drive(timers: 3) { action in
            guard case .encryptPlainFiles = action, refusals > 0 else { return nil }
            refusals -= 1
            return .failure(.diskFull)
        }
        #expect(steps.allSatisfy { ComplianceInvariants.check($0.0, facts: $0.1).isEmpty })
        let failed = try #require(steps.firstIndex { Self.encryptAsked($0.0) })
        // The refusal answers the held reply and owes a retry; the files stay plain meanwhile.
        let refusal = steps[failed + 1]
        #expect(refusal.0.after.reprotectionPending)
        #expect(refusal.1.plainDataKeys.contains(ComplianceInvariants.storeKey(alice)))
        #expect(refusal.0.actions.contains { if case .reply = $0 { true } else { false } })
        #expect(!refusal.0.actions.contains { if case .encryptPlainFiles = $0 { true } else { false } })
        // The next event (the next timer) asks again, and then the files are encrypted.
        #expect(steps.filter { Self.encryptAsked($0.0) }.count == 2)
        #expect(state.world.plainFiles.isEmpty)
        #expect(!state.machine.reprotectionPending)
    }

    @Test func aCrashBeforeTheEncryptionIsAnsweredIsFinishedAtStart() throws {
        let (state, steps) = Self.drive(crashAfterEncryptAsked: true)
        #expect(steps.allSatisfy { ComplianceInvariants.check($0.0, facts: $0.1).isEmpty })
        let crash = try #require(steps.firstIndex { $0.1.crashed })
        #expect(Self.encryptAsked(steps[crash].0))  // the start asks again
        #expect(state.world.plainFiles.isEmpty)
        #expect(steps.filter { Self.reprotected($0.0) }.count == 1)
    }

    /// The re-protection script alone, explored to exhaustion (every answer class, crashes,
    /// failed commits, timers): no invariant breaks, 22 included. With the policy's request
    /// for re-protection left out of the machine, this finds invariant 22.
    @Test func theReprotectionScriptExploredBreaksNothing() async {
        let alone = { var alone = universe; alone.scripts = [universe.scripts[script(Self.name)]]; return alone }()
        let report = await offThePool { Explorer(universe: alone, maxDepth: 60).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted)
    }
}
