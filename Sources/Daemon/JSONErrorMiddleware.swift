import Hummingbird

/// Turns Hummingbird's own errors (no such route, wrong method, …) into the control API's
/// JSON error shape.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "bad_request"
            let message = error.status == .notFound
                ? "no route \(request.method) \(request.uri.path); see Sources/complianced/README.md"
                : (error.body ?? "\(error.status)")
            return ControlError(error.status, code, message).response()
        }
    }
}
