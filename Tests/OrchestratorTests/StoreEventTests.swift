import JSON
import Testing
@testable import Orchestrator

@Suite struct StoreEventTests {
    @Test func seqIsMonotonicAndSinceQueriesPage() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            #expect(try await store.lastEventSeq() == 0)
            var seqs: [Int64] = []
            for index in 0..<7 {
                seqs.append(try await store.appendEvent("tick", account: index.isMultiple(of: 2) ? alice : nil, payload: ["i": .int(Int64(index))]).seq)
            }
            #expect(seqs == seqs.sorted() && Set(seqs).count == 7)
            let page = try await store.events(since: seqs[1], limit: 3)
            #expect(page.map(\.seq) == Array(seqs[2..<5]))
            #expect(page.map { $0.payload["i"]?.intValue } == [2, 3, 4])
            #expect(page[0].account?.upn == "Alice@Contoso.com" && page[1].account == nil)
            #expect(try await store.events(since: seqs[6], limit: 10).isEmpty)
            #expect(try await store.lastEventSeq() == seqs[6])
        }
    }

    @Test func seqIsNeverReusedAfterDeletionAndReopen() async throws {
        try await withTemporaryDirectory { root in
            var last: Int64 = 0
            do {
                let store = try openStore(root)
                last = try await store.appendEvent("a", account: nil, payload: [:]).seq
                try await store.write { tx in try tx.db.execute(sql: "DELETE FROM event") }
            }
            let store = try openStore(root)
            #expect(try await store.appendEvent("b", account: nil, payload: [:]).seq > last)
        }
    }

    @Test func theLogKeepsTheNewestEventsOfItsRetention() async throws {
        try await withTemporaryDirectory { root in
            func open(_ retention: Int) throws -> OrchestratorStore {
                try OrchestratorStore(stateDirectory: root, clock: ManualClock().function, eventRetention: retention, logger: quietLogger)
            }
            func kept(_ store: OrchestratorStore) async throws -> [Int64] {
                try await store.events(since: 0, limit: 10_000).map(\.seq)
            }
            do {
                let store = try open(5)
                for index in 0..<9 { try await store.appendEvent("tick", account: nil, payload: ["i": .int(Int64(index))]) }
                // Several appends in one transaction keep the bound too.
                try await store.write { tx in
                    for index in 9..<12 { try tx.appendEvent("tick", account: alice, payload: ["i": .int(Int64(index))]) }
                }
                #expect(try await kept(store) == [8, 9, 10, 11, 12])
                #expect(try await store.events(since: 0, limit: 1).first?.payload["i"]?.intValue == 7)
                #expect(try await store.lastEventSeq() == 12)
            }
            do {  // A smaller retention drops the excess at the next append.
                let store = try open(3)
                #expect(try await kept(store) == [8, 9, 10, 11, 12], "opening deletes nothing")
                #expect(try await store.appendEvent("after", account: nil, payload: [:]).seq == 13)
                #expect(try await kept(store) == [11, 12, 13])
            }
            do {  // A larger one keeps what is left and grows to it.
                let store = try open(10)
                for _ in 0..<3 { try await store.appendEvent("more", account: nil, payload: [:]) }
                #expect(try await kept(store) == [11, 12, 13, 14, 15, 16])
            }
            do {  // A large retention prunes in batches: never more than one batch over.
                let store = try open(1024)
                #expect(OrchestratorStore.pruneInterval(retention: 1024) == 64)
                try await store.write { tx in
                    for _ in 0..<1100 { try tx.appendEvent("bulk", account: nil, payload: [:]) }
                }
                let seqs = try await kept(store)
                #expect(seqs.last == 1116 && seqs.count >= 1024 && seqs.count < 1024 + 64, "\(seqs.count) kept, first \(seqs.first ?? -1)")
                #expect(seqs.first.map { Int(1116 - $0 + 1) } == seqs.count, "no gaps inside the kept range")
            }
            let single = try open(0)  // clamped to 1
            #expect(single.eventRetention == 1)
            try await single.appendEvent("last", account: nil, payload: [:])
            #expect(try await kept(single) == [1117])
        }
    }

    @Test func longPollWakesWhenAnEventIsCommitted() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            let start = try await store.appendEvent("before", account: nil, payload: [:]).seq
            // A timeout far beyond any stall of a loaded machine: only the commit can end the wait soon.
            async let waited = store.waitForEvents(since: start, limit: 10, timeout: .seconds(600))
            // Give the waiter time to subscribe and find nothing, then commit.
            try await Task.sleep(for: .milliseconds(200))
            let clock = ContinuousClock()
            let begin = clock.now
            try await store.appendEvent("after", account: alice, payload: ["x": 1])
            let events = try await waited
            #expect(events.map(\.kind) == ["after"])
            #expect(clock.now - begin < .seconds(300), "woken by the commit, not the timeout")
        }
    }

    @Test func longPollTimesOutEmptyAndReturnsPresentEventsAtOnce() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            let clock = ContinuousClock()
            let begin = clock.now
            #expect(try await store.waitForEvents(since: 0, limit: 5, timeout: .milliseconds(150)).isEmpty)
            #expect(clock.now - begin >= .milliseconds(150))
            try await store.appendEvent("x", account: nil, payload: [:])
            #expect(try await store.waitForEvents(since: 0, limit: 5, timeout: .seconds(30)).count == 1)
            #expect(try await store.waitForEvents(since: 0, limit: 0, timeout: .seconds(30)).count == 1, "limit 0 counts as 1")
            #expect(store.notifier.subscriberCount == 0, "subscriptions end with their wait")
        }
    }

    @Test func notificationsFollowCommitsNotRollbacks() async throws {
        struct Abort: Error {}
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            var iterator = store.eventNotifications().makeAsyncIterator()
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.appendEvent("lost", account: nil, payload: [:])
                    throw Abort()
                }
            }
            #expect(store.notifier.latestSeq == 0, "a rolled-back append notifies nobody")
            let kept = try await store.write { tx in
                try tx.appendEvent("one", account: nil, payload: [:])
                return try tx.appendEvent("two", account: nil, payload: [:]).seq
            }
            #expect(await iterator.next() == kept, "the rolled-back append sent nothing; the commit sent its newest seq")
            #expect(try await store.events(since: 0, limit: 10).map(\.kind) == ["one", "two"])
        }
    }
}
