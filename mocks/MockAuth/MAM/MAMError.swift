import HTTPTypes
import Hummingbird
import JSON

/// A MAM-service request refused before any enrollment logic ran: authentication (401),
/// malformed input (400). Body: `{"error": …, "error_description": …}`.
public struct MAMError: HTTPResponseError, Sendable, Hashable {
    public var status: HTTPResponse.Status
    public var error: String
    public var message: String

    public static func unauthorized(_ message: String) -> MAMError {
        MAMError(status: .unauthorized, error: "invalid_token", message: message)
    }

    public static func badRequest(_ message: String) -> MAMError {
        MAMError(status: .badRequest, error: "invalid_request", message: message)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        if status == .unauthorized {
            let quoted = message.replacingOccurrences(of: "\"", with: "'")
            headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="\#(quoted)""#
        }
        return .json(["error": .string(error), "error_description": .string(message)], status: status, headers: headers)
    }
}
