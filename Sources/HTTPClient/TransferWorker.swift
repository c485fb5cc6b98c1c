import Dispatch
import Foundation
import Synchronization

/// An easy handle with a thread of its own for blocking `curl_easy_perform` calls.
///
/// Blocking transfers must not run on Swift's cooperative pool, nor on Dispatch's shared
/// worker threads: on Linux the cooperative executor is built on those same threads, so a
/// few slow transfers would starve every task, including the ones answering them. A worker
/// owns a dedicated `Thread` that sleeps on a semaphore between transfers.
///
/// After a transfer the thread spins briefly (``spinLimit``) before sleeping: a client sending
/// requests back to back then hands over the next job without a kernel wake-up, which on a
/// small virtual machine costs about as much as a loopback round trip.
///
/// `@unchecked Sendable`: `job` is written only while the worker is checked out and idle, then
/// published by `pending` (release) and `wake.signal()`; the thread reads it only after
/// `wake.wait()`, which follows seeing `pending` or sleeping until the signal.
final class TransferWorker: @unchecked Sendable {
    let handle = EasyHandle()
    private let wake = DispatchSemaphore(value: 0)
    private var job: (@Sendable (EasyHandle) -> Void)?
    private let pending = Atomic<Bool>(false)
    /// How long an idle worker polls for the next job before it sleeps.
    static let spinLimit: Duration = .microseconds(200)

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "HTTPClient.curl-transfer"
        thread.start()
    }

    /// Runs `job` on the worker's thread. The worker must be idle (checked out of the pool).
    func run(_ job: @escaping @Sendable (EasyHandle) -> Void) {
        self.job = job
        pending.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Ends the thread; the handle (and its connections) goes with the worker.
    func stop() {
        job = nil
        pending.store(true, ordering: .releasing)
        wake.signal()
    }

    private func loop() {
        let clock = ContinuousClock()
        while true {
            let spinUntil = clock.now + Self.spinLimit
            while !pending.load(ordering: .acquiring), clock.now < spinUntil {}
            wake.wait()  // returns at once when the job was already signalled
            pending.store(false, ordering: .relaxed)
            guard let job else { return }
            self.job = nil
            job(handle)
        }
    }
}
