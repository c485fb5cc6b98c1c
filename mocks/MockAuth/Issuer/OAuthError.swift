import Foundation
import HTTPTypes
import Hummingbird
import JSON

/// An OAuth 2.0 error answered the way Entra ID answers it.
///
/// Body: `error`, `error_description` (`AADSTSnnnn: message` followed by `\r\nTrace ID`,
/// `\r\nCorrelation ID` and `\r\nTimestamp` lines), `error_codes`, `timestamp`, `trace_id`,
/// `correlation_id`, and when set `suberror`, `adi` and further members. The correlation id
/// echoes the request's `client-request-id` header as Entra does.
public struct OAuthError: HTTPResponseError, Sendable, Hashable {
    public var status: HTTPResponse.Status
    /// The OAuth `error` value, e.g. `invalid_grant`.
    public var error: String
    /// The AADSTS number, when Entra has one for this failure.
    public var aadsts: Int?
    public var message: String
    public var suberror: String?
    /// More members appended after the standard ones (e.g. `adi`).
    public var extra: [String: String] = [:]

    public init(status: HTTPResponse.Status = .badRequest, error: String, aadsts: Int?, message: String, suberror: String? = nil) {
        self.status = status
        self.error = error
        self.aadsts = aadsts
        self.message = message
        self.suberror = suberror
    }

    /// The full `error_description` with trace lines.
    func description(traceID: String, correlationID: String, timestamp: String) -> String {
        let head = aadsts.map { "AADSTS\($0): \(message)" } ?? message
        return "\(head)\r\nTrace ID: \(traceID)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(timestamp)"
    }

    /// The JSON body for a request that carried `correlationID` (or none).
    public func body(correlationID: String?, now: Date = Date()) -> JSONValue {
        let traceID = UUID().uuidString.lowercased()
        let correlation = correlationID.flatMap { UUID(uuidString: $0) != nil ? $0.lowercased() : nil }
            ?? UUID().uuidString.lowercased()
        let timestamp = Self.timestamp(now)
        var object = JSONObject([
            ("error", .string(error)),
            ("error_description", .string(description(traceID: traceID, correlationID: correlation, timestamp: timestamp))),
        ])
        if let aadsts { object["error_codes"] = [.int(Int64(aadsts))] }
        object["timestamp"] = .string(timestamp)
        object["trace_id"] = .string(traceID)
        object["correlation_id"] = .string(correlation)
        if let suberror { object["suberror"] = .string(suberror) }
        for key in extra.keys.sorted() { object[key] = .string(extra[key]!) }
        return .object(object)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(for: request)
    }

    /// The error response to `request` (its `client-request-id` becomes the correlation id).
    func response(for request: Request) -> Response {
        .json(body(answering: request.head), status: status)
    }

    /// The error body answering `head` (its `client-request-id` becomes the correlation id).
    func body(answering head: HTTPRequest) -> JSONValue {
        body(correlationID: head.headerFields[Self.clientRequestID])
    }

    /// The request header whose value an error answer echoes as `correlation_id`.
    static let clientRequestID = HTTPField.Name("client-request-id")!

    /// Entra's timestamp format: `2024-05-01 12:34:56Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }
}

extension OAuthError {
    static func invalidRequest(code: Int? = nil, _ message: String) -> OAuthError {
        OAuthError(error: "invalid_request", aadsts: code, message: message)
    }

    static func invalidGrant(code: Int?, _ message: String, suberror: String? = nil) -> OAuthError {
        OAuthError(error: "invalid_grant", aadsts: code, message: message, suberror: suberror)
    }

    static func invalidClient(code: Int?, _ message: String) -> OAuthError {
        OAuthError(status: .unauthorized, error: "invalid_client", aadsts: code, message: message)
    }

    static func unauthorizedClient(code: Int?, _ message: String) -> OAuthError {
        OAuthError(error: "unauthorized_client", aadsts: code, message: message)
    }

    static func invalidScope(code: Int? = 70011, _ message: String) -> OAuthError {
        OAuthError(error: "invalid_scope", aadsts: code, message: message)
    }

    static func missingParameter(_ name: String) -> OAuthError {
        .invalidRequest(code: 900144, "The request body must contain the following parameter: '\(name)'.")
    }

    static func unknownTenant(_ segment: String) -> OAuthError {
        .invalidRequest(
            code: 90002,
            "Tenant '\(segment)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.")
    }

    static func unknownClient(_ clientId: String, tenant: String) -> OAuthError {
        .unauthorizedClient(
            code: 700016,
            "Application with identifier '\(clientId)' was not found in the directory '\(tenant)'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.")
    }

    static var tooLarge: OAuthError {
        OAuthError(
            status: .contentTooLarge, error: "invalid_request", aadsts: nil,
            message: "The request body exceeds the limit of \(MockAuthLimits.maxRequestBodyBytes) bytes.")
    }
}
