import ComplianceCore
import JSON
import Orchestrator
import Testing

/// A clock advance is told it happened only once its `clockAdvanced` is committed. With no
/// timer due, a refused commit was answered as a move (the clock moved, the event was lost:
/// the log then jumps from one advance's `to` to a later `from`); now it answers
/// `storage_unavailable` and the clock stays, as for a timer whose work the store refused.
@Suite struct ClockAdvanceCommitTests {
    @Test func aClockAdvanceWhoseEventCannotBeCommittedFailsAndLeavesTheClock() async throws {
        try await EngineHarness.run { harness in
            let first = try await harness.engine.advanceClock(seconds: 3600)
            await harness.engine.failStorage(.commit, count: 1)
            do {
                let moved = try await harness.engine.advanceClock(seconds: 7200)
                Issue.record("the advance answered \(moved) though its clockAdvanced was not committed")
            } catch let error as EngineError {
                #expect(error.code == .storageUnavailable, "\(error)")
            }
            let next = try await harness.engine.advanceClock(seconds: 60)
            #expect(next.from == first.now, "the refused advance moved the clock")
            let moves = try await harness.events().filter { $0.kind == "clockAdvanced" }.map(\.payload)
            #expect(moves == [
                .object(["from": .int(first.from), "to": .int(first.now)]),
                .object(["from": .int(first.now), "to": .int(first.now + 60_000)]),
            ])
        }
    }
}
