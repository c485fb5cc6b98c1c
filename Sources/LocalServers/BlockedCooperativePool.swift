import Dispatch
import Foundation
import Synchronization

/// Runs blocking work while every thread of Swift's cooperative pool is held: for tests that a
/// server answers without the pool (mockauth, HTTPClientTests' echo server).
public enum BlockedCooperativePool {
    /// Blocks each cooperative thread (one blocker a core), runs `work` on a thread of its own
    /// once they all are blocked, and releases them when `work` ends (or after 60 s): no pool
    /// thread is free while `work` runs. Throws when the blockers never all ran.
    public static func whileBlocked<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let running = BlockerCount()
        let release = DispatchSemaphore(value: 0)
        let blockers = (0..<width).map { _ in
            Task.detached {
                running.value.withLock { $0 += 1 }
                _ = release.wait(timeout: .now() + 60)
            }
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            Thread {
                defer { for _ in 0..<width { release.signal() } }
                let deadline = Date().addingTimeInterval(60)
                while running.value.withLock({ $0 }) < width, Date() < deadline { usleep(10_000) }
                guard running.value.withLock({ $0 }) == width else {
                    return continuation.resume(returning: .failure(BlockedPoolError("the blockers never all ran")))
                }
                continuation.resume(returning: Result { try work() })
            }.start()
        }
        for blocker in blockers { await blocker.value }
        return try result.get()
    }
}

/// How many blockers hold a cooperative thread.
private final class BlockerCount: Sendable {
    let value = Mutex(0)
}

/// The blockers of ``BlockedCooperativePool`` did not all get a thread.
public struct BlockedPoolError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
