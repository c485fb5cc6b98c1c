import Foundation
import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

let universe = Universe.standard
let alice = try! AccountID("alice@contoso.com")
let josé = try! AccountID("jos\u{E9}@contoso.com")
let joséNFD = try! AccountID("jose\u{301}@contoso.com")
let dave = try! AccountID("dave@contoso.com")

/// The index of the standard universe's script whose name starts with `prefix`.
func script(_ prefix: String) -> Int {
    universe.scripts.firstIndex { $0.name.hasPrefix(prefix) }!
}

/// A normal run of the script starting with `prefix`.
func run(_ prefix: String, timers: Int = 2, answers: [Answer] = []) -> ScriptRun.Log {
    ScriptRun(universe: universe).run(script(prefix), timers: timers, answers: answers)
}

/// The first transition of `log` whose committed notifications contain one `matching`.
func transition(in log: ScriptRun.Log, where matching: (ComplianceEvent) -> Bool) -> (ComplianceInvariants.Transition, ComplianceInvariants.Facts)? {
    for entry in log.transitions {
        for action in entry.transition.actions {
            if case .persist(let changes) = action, changes.events.contains(where: matching) { return (entry.transition, entry.facts) }
        }
    }
    return nil
}

/// The first transition of `log` that `matching` picks, checked to break nothing as it is.
func firstCleanTransition(
    in log: ScriptRun.Log, sourceLocation: SourceLocation = #_sourceLocation, where matching: (ComplianceInvariants.Transition) -> Bool
) throws -> (transition: ComplianceInvariants.Transition, facts: ComplianceInvariants.Facts) {
    let entry = try #require(log.transitions.first { matching($0.transition) }, sourceLocation: sourceLocation)
    #expect(broken(entry.transition, entry.facts).isEmpty, sourceLocation: sourceLocation)
    return entry
}

/// The invariants a check found, by number.
func broken(_ transition: ComplianceInvariants.Transition, _ facts: ComplianceInvariants.Facts) -> Set<Int> {
    Set(ComplianceInvariants.check(transition, facts: facts).map(\.invariant.rawValue))
}

/// `machine` with an account record changed by `change` and rebuilt.
func rebuilt(_ machine: ComplianceMachine, _ account: AccountID, _ change: (inout JSONObject) -> Void) throws -> ComplianceMachine {
    var stored = machine.stored
    stored.accounts = stored.accounts.map { record in
        guard record["account"]?["upn"]?.stringValue.flatMap({ try? AccountID($0) }) == account, var object = record.objectValue else { return record }
        change(&object)
        return .object(object)
    }
    return try ComplianceMachine(restoring: stored, configuration: machine.configuration)
}

/// An enrollment snapshot of `account` in state `enrolled`.
func enrolledSnapshot(_ account: AccountID) -> JSONValue {
    var machine = EnrollmentStateMachine(account: account)
    _ = machine.register(now: Instant(millisecondsSinceEpoch: 0))
    _ = machine.enrollmentSucceeded(.newPoliciesReceived, now: Instant(millisecondsSinceEpoch: 0))
    return machine.snapshot.json
}

/// Runs CPU-bound work (an exploration) on a thread of its own and waits for it, so it does
/// not hold a thread of the cooperative pool (two on this machine) for its whole run: while
/// the suite runs in parallel, the in-process servers of other suites, whose handlers run on
/// that pool, keep answering (they timed out when two explorations held both threads).
/// The thread runs at nice 10 (Linux keeps a nice value per thread, and the exploration's
/// worker threads inherit it): on a machine whose cores the run keeps busy (load 25 in a
/// clean clone's CI run), the servers' event loops in this process, and the programs the other
/// suites start, go first, and an exploration only takes longer.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)  // 0: the calling thread, on Linux
            continuation.resume(returning: body())
        }
    }
}
