import HTTPTypes
import Hummingbird
import Orchestrator

/// An error the control API answers with: `{"error": {"code", "message"}}` and a status.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public static func badRequest(_ message: String) -> ControlError { ControlError(.badRequest, "bad_request", message) }
    public static func notFound(_ message: String) -> ControlError { ControlError(.notFound, "not_found", message) }

    /// The engine's error with the status its code calls for (``EngineError/Code/httpStatus``,
    /// the one table).
    public init(_ error: EngineError) {
        self.init(HTTPResponse.Status(code: error.code.httpStatus), error.code.description, error.message)
    }

    public var description: String { "\(code): \(message)" }

    /// The answer: `{"error": {"code", "message"}}` with ``status``; `closing` also tells the
    /// client the connection ends (a refused peer or page gets nothing more on it).
    func response(closing: Bool = false) -> Response {
        var response = Response.json(["error": ["code": .string(code), "message": .string(message)]], status: status)
        if closing { response.headers[.connection] = "close" }
        return response
    }
}
