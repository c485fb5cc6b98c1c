import HTTPTypes
import Hummingbird
import JSON

/// A MAM-service request refused before any enrollment logic ran: authentication (401),
/// a token acting for another app (403), malformed input (400). Body: `{"error": …, "error_description": …}`.
public struct MAMError: HTTPResponseError, Sendable, Hashable {
    public var status: HTTPResponse.Status
    public var error: String
    public var message: String
    /// The `WWW-Authenticate` value of a 401, when not the plain `invalid_token` one.
    public var wwwAuthenticate: String? = nil

    public static func unauthorized(_ message: String) -> MAMError {
        MAMError(status: .unauthorized, error: "invalid_token", message: message)
    }

    /// CAE refused the token (``ContinuousAccess``): 401 with `wwwAuthenticate` as the challenge.
    public static func insufficientClaims(_ wwwAuthenticate: String) -> MAMError {
        MAMError(
            status: .unauthorized, error: "insufficient_claims",
            message: "The token no longer satisfies continuous access evaluation; ask the issuer again with the claims of WWW-Authenticate.",
            wwwAuthenticate: wwwAuthenticate)
    }

    public static func forbidden(_ message: String) -> MAMError {
        MAMError(status: .forbidden, error: "access_denied", message: message)
    }

    public static func badRequest(_ message: String) -> MAMError {
        MAMError(status: .badRequest, error: "invalid_request", message: message)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        if let wwwAuthenticate {
            headers[.wwwAuthenticate] = wwwAuthenticate
        } else if status == .unauthorized {
            let quoted = message.replacingOccurrences(of: "\"", with: "'")
            headers[.wwwAuthenticate] = #"Bearer error="invalid_token", error_description="\#(quoted)""#
        }
        return .json(["error": .string(error), "error_description": .string(message)], status: status, headers: headers)
    }
}
