import Synchronization

/// An async HTTP client over libcurl.
///
/// `curl_easy_perform` blocks its thread for the whole transfer, so ``execute(_:)`` never calls
/// it on Swift's cooperative pool: it suspends the task, hands the transfer to a
/// ``TransferWorker`` (an easy handle with a dedicated thread), and that thread resumes the task
/// with the result. Idle workers are pooled; a worker's handle keeps its connections alive, so
/// sequential requests to one server reuse a connection, while concurrent requests each get a
/// worker of their own.
///
/// Headers and bodies are never logged or printed by this type.
public final class HTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    private let idleWorkers = Mutex<[TransferWorker]>([])

    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.configuration = configuration
    }

    deinit {
        for worker in idleWorkers.withLock({ $0 }) { worker.stop() }
    }

    /// Sends `request` and returns the whole response, or throws ``HTTPClientError``.
    /// Cancelling the calling task aborts the transfer (`.cancelled`).
    public func execute(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let cancelled = CancellationFlag()
        let result: Result<HTTPClientResponse, HTTPClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let worker = checkOut()
                worker.run { handle in
                    let result = handle.perform(request, configuration: self.configuration, cancelled: cancelled)
                    self.checkIn(worker)
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }

    /// Shorthand for a GET.
    public func get(_ url: String, headers: HTTPClientHeaders = [:]) async throws(HTTPClientError) -> HTTPClientResponse {
        try await execute(HTTPClientRequest(method: .get, url: url, headers: headers))
    }

    private func checkOut() -> TransferWorker {
        idleWorkers.withLock { $0.popLast() } ?? TransferWorker()
    }

    private func checkIn(_ worker: TransferWorker) {
        let limit = configuration.maxIdleHandles
        let kept = idleWorkers.withLock { workers in
            guard workers.count < limit else { return false }
            workers.append(worker)
            return true
        }
        if !kept { worker.stop() }
    }
}
