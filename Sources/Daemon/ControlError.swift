import HTTPTypes
import Hummingbird
import Orchestrator

/// An error the control API answers with: `{"error": {"code", "message"}}` and a status.
/// It decides its own response (`HTTPResponseError`): a handler or middleware throws it and
/// Hummingbird's router answers with it; ``ControlErrorMiddleware`` turns every other error
/// into one first.
public struct ControlError: HTTPResponseError, Sendable, Hashable, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    /// The answer also tells the client the connection ends (`Connection: close`): a refused
    /// peer or web page gets nothing more on it.
    public let closesConnection: Bool

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, closesConnection: Bool = false) {
        self.status = status
        self.code = code
        self.message = message
        self.closesConnection = closesConnection
    }

    public static func badRequest(_ message: String) -> ControlError { ControlError(.badRequest, "bad_request", message) }
    public static func notFound(_ message: String) -> ControlError { ControlError(.notFound, "not_found", message) }

    /// The engine's error with the status its code calls for (``EngineError/Code/httpStatus``,
    /// the one table).
    public init(_ error: EngineError) {
        self.init(HTTPResponse.Status(code: error.code.httpStatus), error.code.description, error.message)
    }

    public var description: String { "\(code): \(message)" }

    /// `{"error": {"code", "message"}}` with ``status``, and `Connection: close` when
    /// ``closesConnection``.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(["error": ["code": .string(code), "message": .string(message)]], status: status)
        if closesConnection { response.headers[.connection] = "close" }
        return response
    }
}
