import Foundation
import Hummingbird
import JSON
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies injected faults (``FaultRule``) before the route runs.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = MockRequestContext
    let state: MockState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard state.hasPendingFaults, let route = RouteName.of(path: request.uri.path), let rule = state.takeFault(route: route) else {
            return try await next(request, context)
        }
        state.metrics.faultFired(route: route, action: rule.action.rawValue)
        context.note.withLockedValue { $0.fault = "#\(rule.id) \(rule.action.rawValue)\(rule.status.map { " \($0)" } ?? "")" }
        if rule.delayMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(rule.delayMilliseconds))
        }
        if rule.action == .hold {
            // A stop releases what is held: the server's graceful shutdown waits for its requests.
            await withGracefulShutdownHandler {
                await state.held.hold(until: context.channel.closeFuture)
            } onGracefulShutdown: { [state] in
                state.held.releaseAll()
            }
            guard context.channel.isActive else {
                context.note.withLockedValue { $0.unanswered = true }
                return Response(status: .serviceUnavailable)  // never sent: the client is gone
            }
        }
        let status = HTTPResponse.Status(code: rule.status ?? 200)
        switch rule.action {
        case .none, .hold:
            guard rule.status != nil else { return try await next(request, context) }
            var headers: HTTPFields = [:]
            if let retryAfter = rule.retryAfter { headers[.retryAfter] = String(retryAfter) }
            let error: JSONValue = [
                "error": rule.status == 429 ? "too_many_requests" : "temporarily_unavailable",
                "error_description": .string("Injected fault #\(rule.id): HTTP \(status.code)."),
            ]
            return .json(error, status: status, headers: headers)
        case .reset, .close:
            if rule.action == .reset {
                // SO_LINGER 0: close() sends RST instead of FIN.
                if let provider = context.channel as? any SocketOptionProvider {
                    try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                }
            }
            context.note.withLockedValue { $0.unanswered = true }
            try? await context.channel.close()
            return Response(status: .serviceUnavailable)  // never sent: the connection is gone
        case .malformed:
            return Response(
                status: status, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><body>mockauth: injected malformed body</body></html>")))
        case .empty:
            var headers: HTTPFields = [:]
            if let retryAfter = rule.retryAfter { headers[.retryAfter] = String(retryAfter) }
            return Response(status: HTTPResponse.Status(code: rule.status ?? 500), headers: headers, body: .init())
        case .truncated:
            return FaultBodies.truncated(status: status, channel: context.channel)
        case .wrongContentType:
            return FaultBodies.wrongContentType(try await answer(request, context, next))
        case .oversized:
            return FaultBodies.oversized(try await answer(request, context, next), totalBytes: rule.bytes ?? FaultRule.defaultOversizedBytes)
        }
    }

    /// The route's answer, with an error it throws (an OAuth error, a CA answer, the router's
    /// own 404 for a wrong method) already turned into the response the client would get, so
    /// the body-shaping faults apply to error answers too.
    private func answer(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return RequestLogMiddleware.routerErrorResponse(error, request: request)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        }
    }
}
