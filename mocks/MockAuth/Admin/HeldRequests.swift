import NIOCore
import Synchronization

/// Requests a `hold` fault keeps unanswered: each waits until it is released
/// (`POST /_admin/faults/release`, clearing the faults, a reset, the server's stop) or until its connection
/// closes. A client that only shuts its side (FIN) leaves a half-closed connection open
/// (Hummingbird allows remote half-closure): release the request then.
///
/// A test puts a client's own timeout against a held request instead of against a delay: the
/// answer never comes before the client gives up, however slow the machine, and the test can
/// see that the request arrived (``count``) before it does what must come next.
public final class HeldRequests: Sendable {
    private struct Waiters: Sendable {
        var next = 0
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let waiters = Mutex(Waiters())

    /// How many requests are held now.
    public var count: Int { waiters.withLock { $0.held.count } }

    /// Releases every held request (each then runs on, or ends if its client is gone);
    /// returns how many there were.
    @discardableResult
    public func releaseAll() -> Int {
        let released = waiters.withLock { waiters in
            defer { waiters.held = [:] }
            return Array(waiters.held.values)
        }
        for continuation in released { continuation.resume() }
        return released.count
    }

    /// Holds the calling request until it is released or `closed` (its connection's close
    /// future) completes.
    func hold(until closed: EventLoopFuture<Void>) async {
        let id = waiters.withLock { waiters in
            waiters.next += 1
            return waiters.next
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiters.withLock { $0.held[id] = continuation }
            closed.whenComplete { _ in self.release(id) }
        }
    }

    private func release(_ id: Int) {
        waiters.withLock { $0.held.removeValue(forKey: id) }?.resume()
    }
}
