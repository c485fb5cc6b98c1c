import NIOCore

/// A task executor that runs every job on one NIO event loop.
///
/// A connection's handler task that prefers this executor (see ``EventLoopPinnedChannel``) runs
/// on the thread that reads and writes the connection's socket, and calls the synchronous
/// `MockState` there. A request then costs no thread hop between NIO and Swift's cooperative pool.
///
/// Work on this executor blocks the loop while it runs; the mock's handlers never block on I/O
/// (they await, and sleeping for an injected delay suspends).
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `eventLoop` is immutable and event loops are thread-safe.
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
