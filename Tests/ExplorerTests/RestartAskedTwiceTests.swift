@testable import ComplianceCore
import Explorer
import Testing

/// The wide universe's first violation past depth 15 (invariant 21), replayed: alice's first
/// policy asks the app's restart, alice leaves before it happens, josé's first policy asks
/// again, and the process crashes. The second ask overwrote the first, so the start recorded
/// josé's restart only and alice's restartRequired never ended. Now a restart asked and not yet
/// happened stays remembered; the start records both.
@Suite struct RestartAskedTwiceTests {
    static let trace = [
        "script: wide: alice signs in twice, josé waits for her slot, the authority moves back, alice leaves",
        "signIn alice", "signIn alice", "answer step 2: normal", "answer step 4: 53009", "signIn josé-nfc",
        "answer step 7: normal", "answer step 9: normal", "overrideAuthority cleared", "answer step 12: normal",
        "deregister alice", "answer step 17: normal", "the next timer fires", "answer step 20: normal",
        "answer step 21: normal", "crash (kill -9) and restart",
    ]

    /// The next one the wide universe met, at depth 17: the app answered YES for alice's restart
    /// (it owes it), alice left, josé's first policy made his restart pending, and the app's
    /// report recorded josé's restart only (the owed one was recorded only when none was
    /// pending), so the crash after it found alice's restartRequired open.
    static let owedBesidePending = [
        "script: wide: alice signs in twice, josé waits for her slot, the authority moves back, alice leaves",
        "signIn alice", "signIn alice", "answer step 2: normal", "answer step 4: 53009", "signIn josé-nfc",
        "answer step 7: normal", "answer step 12: normal", "the restart hook answers YES", "overrideAuthority cleared",
        "deregister alice", "answer step 17: normal", "answer step 9: normal", "answer step 20: normal",
        "answer step 21: normal", "the app reports its restart", "crash (kill -9) and restart",
    ]

    @Test func anOwedRestartIsRecordedWhenAnotherIsPendingBesideIt() throws {
        let ends = try Self.replay(Self.owedBesidePending)
        #expect(ends.contains("appRestarted alice@contoso.com"), "\(ends)")
    }

    @Test func aRestartAskedForAnAccountThatLeftIsRecordedWhenTheAppRestarts() throws {
        let last = try Self.replay(Self.trace)
        #expect(last.contains("appRestarted alice@contoso.com") && last.contains("appRestarted josé@contoso.com"), "\(last)")
    }

    /// Takes `trace` (the explorer's event descriptions) in the wide universe, checking every
    /// invariant after each event; the events recorded from the last-but-one event on.
    static func replay(_ trace: [String]) throws -> [String] {
        let universe = Universe.wide
        var state = ExploreState(universe: universe)
        var recorded: [[String]] = []
        for (index, wanted) in trace.enumerated() {
            let event = try #require(state.events(in: universe).first { "\($0)" == wanted }, "step \(index + 1), \(wanted), is possible")
            let (transition, facts) = state.apply(event, in: universe)
            #expect(ComplianceInvariants.check(transition, facts: facts).isEmpty, "step \(index + 1), \(wanted)")
            recorded.append(transition.events.map { "\($0)" })
        }
        return recorded.suffix(2).flatMap { $0 }
    }
}
