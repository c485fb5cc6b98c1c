import Hummingbird
import Logging
import Orchestrator

/// The control API's one place where errors become answers: every error leaves it as a
/// ``ControlError`` (whose `HTTPResponseError` response the router sends), never HTML and
/// never an empty 500.
///
/// - ``ControlError``: as thrown;
/// - ``EngineError``: its code and the status of ``EngineError/Code/httpStatus``;
/// - Hummingbird's `HTTPError` (no such route, wrong method, …): `not_found` or `bad_request`;
/// - anything else: `internal`, 500.
///
/// Answers of 500 and more are logged (the message only; errors carry no secrets).
struct ControlErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = Self.controlError(error, request: request)
            if answer.status.code >= 500 { logger.error("control request failed", metadata: ["error.message": "\(answer)"]) }
            throw answer
        }
    }

    static func controlError(_ error: any Error, request: Request) -> ControlError {
        switch error {
        case let error as ControlError:
            return error
        case let error as EngineError:
            return ControlError(error)
        case let error as HTTPError where error.status == .notFound:
            return .notFound("no route \(request.method) \(request.uri.path); see Sources/complianced/README.md")
        case let error as HTTPError:
            return ControlError(error.status, "bad_request", error.body ?? "\(error.status)")
        default:
            return ControlError(.internalServerError, "internal", "\(error)")
        }
    }
}
