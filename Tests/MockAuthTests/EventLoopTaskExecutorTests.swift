import NIOCore
import NIOPosix
import Testing

@testable import MockAuth

/// A default actor with no executor of its own: where its code runs is the question.
private actor Probe {
    func runsOn(_ loop: any EventLoop) -> Bool {
        loop.inEventLoop
    }
}

@Suite("EventLoopTaskExecutor")
struct EventLoopTaskExecutorTests {
    @Test("a task that prefers the executor runs on its event loop, also after a suspension")
    func taskRunsOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loop = group.next()
        let other = group.next()
        let (before, after) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            let before = loop.inEventLoop
            // A suspension that resumes from another thread (the other loop completes the future).
            try? await other.scheduleTask(in: .milliseconds(5)) {}.futureResult.get()
            return (before, loop.inEventLoop)
        }
        #expect(before)
        #expect(after)
        #expect(!loop.inEventLoop)  // the test's own task is not on the loop
        try await group.shutdownGracefully()
    }

    @Test("a default actor called from such a task runs its code on the same loop (SE-0417)")
    func defaultActorRunsOnThePreferredLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let probe = Probe()
        let results = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            var results: [Bool] = []
            for _ in 0..<3 { results.append(await probe.runsOn(loop)) }
            return results
        }
        #expect(results == [true, true, true])
        // Without the preference the actor's code runs on the cooperative pool, not on the loop.
        #expect(await probe.runsOn(loop) == false)
        try await group.shutdownGracefully()
    }
}
