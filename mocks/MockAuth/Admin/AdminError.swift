import HTTPTypes
import Hummingbird

/// An admin API request that cannot be carried out: `{"error": …, "error_description": …}`.
public struct AdminError: HTTPResponseError, Sendable, Hashable {
    public var status: HTTPResponse.Status
    public var message: String

    public static func badRequest(_ message: String) -> AdminError {
        AdminError(status: .badRequest, message: message)
    }

    public static func notFound(_ message: String) -> AdminError {
        AdminError(status: .notFound, message: message)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let error = switch status {
        case .notFound: "not_found"
        case .forbidden: "forbidden"
        default: "invalid_request"
        }
        return .json(["error": .string(error), "error_description": .string(message)], status: status)
    }
}
