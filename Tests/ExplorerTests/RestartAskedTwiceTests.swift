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

    @Test func aRestartAskedForAnAccountThatLeftIsRecordedWhenTheAppRestarts() throws {
        let universe = Universe.wide
        var state = ExploreState(universe: universe)
        var last: [String] = []
        for (index, wanted) in Self.trace.enumerated() {
            let event = try #require(state.events(in: universe).first { "\($0)" == wanted }, "step \(index + 1), \(wanted), is possible")
            let (transition, facts) = state.apply(event, in: universe)
            #expect(ComplianceInvariants.check(transition, facts: facts).isEmpty, "step \(index + 1), \(wanted)")
            last = transition.events.map { "\($0)" }
        }
        #expect(last.contains("appRestarted alice@contoso.com") && last.contains("appRestarted josé@contoso.com"), "\(last)")
    }
}
