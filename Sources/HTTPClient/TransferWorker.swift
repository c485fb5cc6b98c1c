import Dispatch
import Foundation

/// An easy handle with a thread of its own for blocking `curl_easy_perform` calls.
///
/// Blocking transfers must not run on Swift's cooperative pool, nor on Dispatch's shared
/// worker threads: on Linux the cooperative executor is built on those same threads, so a
/// few slow transfers would starve every task, including the ones answering them. A worker
/// owns a dedicated `Thread` that sleeps on a semaphore between transfers.
///
/// `@unchecked Sendable`: `job` is written only while the worker is checked out and idle, then
/// handed to the thread by `wake.signal()`; the thread reads it only after `wake.wait()`.
final class TransferWorker: @unchecked Sendable {
    let handle = EasyHandle()
    private let wake = DispatchSemaphore(value: 0)
    private var job: (@Sendable (EasyHandle) -> Void)?

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "HTTPClient.curl-transfer"
        thread.start()
    }

    /// Runs `job` on the worker's thread. The worker must be idle (checked out of the pool).
    func run(_ job: @escaping @Sendable (EasyHandle) -> Void) {
        self.job = job
        wake.signal()
    }

    /// Ends the thread; the handle (and its connections) goes with the worker.
    func stop() {
        job = nil
        wake.signal()
    }

    private func loop() {
        while true {
            wake.wait()
            guard let job else { return }
            self.job = nil
            job(handle)
        }
    }
}
