import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Logging
import NIOHTTP1

/// Outermost middleware: turns every error into a JSON answer (never an empty 500) and
/// appends a redacted line to the request log (method, path without query, status,
/// grant type, user).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = MockRequestContext
    let state: MockState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = Self.routerErrorResponse(error, request: request)
        } catch let error as HTTPParserError {
            // A body the decoder could not parse (a bad chunk): the connection cannot go on.
            let (status, body) = MalformedRequestAnswer.response(to: error)
            response = .json(body, status: status, headers: [.connection: "close"])
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            response = .json(Self.serverError, status: .internalServerError)
        }
        let path = request.uri.path
        Self.record(
            method: request.method, rawPath: path, route: RouteName.of(path: path), status: response.status, notes: context.note,
            state: state, logger: context.logger)
        return response
    }

    /// The router's own errors (no such route, method) answer JSON like every other error.
    static func routerErrorResponse(_ error: HTTPError, request: Request) -> Response {
        let name = error.status == .notFound ? "not_found" : "invalid_request"
        return .json(
            ["error": .string(name), "error_description": .string("\(error.status.reasonPhrase): \(request.method.rawValue) \(request.uri.path)")],
            status: error.status)
    }

    /// The answer to an error no handler turned into its own answer (HTTP 500).
    static let serverError: JSONValue = ["error": "server_error", "error_description": "The mock server failed to handle the request."]

    /// Appends the request's line to the request log (unless it is an admin request) and logs
    /// it at debug level, both with the path redacted. Also used by ``TokenFastLane``.
    /// `route` is the path's ``RouteName`` (the caller may know it already).
    static func record(
        method: HTTPRequest.Method, rawPath: String, route: String?, status: HTTPResponse.Status, notes: RequestNotes,
        state: MockState, logger: Logger
    ) {
        let note = notes.withLockedValue { $0 }
        // Redacted once, here, for the log and the debug line alike (neither keeps secrets).
        let path = RequestLogEntry.redacted(path: rawPath)
        let sent = note.unanswered ? nil : status.code
        // The admin API and the scrapers' routes (`/metrics`, `/health`) stay out of the log.
        if !AdminRoutes.isAdmin(path: rawPath), rawPath != "/metrics", rawPath != "/health" {
            state.appendLog(
                method: method.rawValue, path: path, route: route,
                status: sent, grantType: note.grantType, user: note.user, fault: note.fault)
        }
        logger.debug(
            "request",
            metadata: ["http.path": "\(path)", "http.status": "\(sent.map(String.init) ?? "none")", "oauth.grant_type": "\(note.grantType ?? "-")"])
    }
}
