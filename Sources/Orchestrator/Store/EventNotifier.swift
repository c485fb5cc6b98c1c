import Foundation

/// Tells subscribers the newest event sequence number after each commit that appended events.
///
/// Each subscriber gets its own `AsyncStream` that keeps only the newest value: a slow
/// reader sees the latest seq, never a backlog, and re-reads the events from the store.
final class EventNotifier: @unchecked Sendable {  // all mutable state is guarded by `lock`
    private let lock = NSLock()
    private var latest: Int64 = 0
    private var nextID = 0
    private var continuations: [Int: AsyncStream<Int64>.Continuation] = [:]
    private var ended = false

    /// The newest committed seq known (set at open, raised by ``signal(_:)``).
    var latestSeq: Int64 { lock.withLock { latest } }

    /// Sets the starting point when the store opens.
    func prime(_ seq: Int64) {
        lock.withLock { latest = max(latest, seq) }
    }

    /// Called after a commit that appended events up to `seq`.
    func signal(_ seq: Int64) {
        let (value, targets) = lock.withLock { () -> (Int64, [AsyncStream<Int64>.Continuation]) in
            latest = max(latest, seq)
            return (latest, Array(continuations.values))
        }
        for continuation in targets { continuation.yield(value) }
    }

    /// A new subscription; it ends when the stream is dropped or its task is cancelled, or at
    /// once after ``endAll()``.
    func subscribe() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let id = lock.withLock { () -> Int? in
            guard !ended else { return nil }
            defer { nextID += 1 }
            continuations[nextID] = continuation
            return nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscription, and every later one at once: waiters stop waiting (the daemon
    /// is shutting down and must not be held by long polls).
    func endAll() {
        let targets = lock.withLock { () -> [AsyncStream<Int64>.Continuation] in
            ended = true
            defer { continuations.removeAll() }
            return Array(continuations.values)
        }
        for continuation in targets { continuation.finish() }
    }

    /// How many subscriptions are live (for tests and diagnostics).
    var subscriberCount: Int { lock.withLock { continuations.count } }
}
