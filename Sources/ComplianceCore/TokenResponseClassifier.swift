import JSON

/// Turns a token endpoint answer (status, headers, body) into a ``TokenResponse``.
///
/// Lenient where MSAL is: errors are recognised in HTTP 200 as well as 400/401/403,
/// `error` and `suberror` compare case-insensitively, and `invalid_grant` with
/// `protection_policy_required` counts like `unauthorized_client`. Strict on structure:
/// a field of the wrong JSON type, an undecodable `client_info` or a body that is not a
/// JSON object yields ``TokenResponse/malformed(_:)`` naming the status, never a crash. A
/// refusal (400, 401, 403) without an OAuth error in its body (empty, not JSON, no `error`) is
/// classified by its status: ``TokenResponse/requestRejected(_:)`` with
/// ``ServerError/derivedFromStatus`` set.
public enum TokenResponseClassifier: Sendable {
    /// Classifies one response.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: response header fields (names compare case-insensitively).
    ///   - body: the raw body bytes.
    ///   - receivedAt: when the response arrived, to turn `expires_in` into an expiry.
    ///   - authority: the authority the request went to, reported with protection-policy errors.
    public static func classify(
        status: Int, headers: [(name: String, value: String)], body: [UInt8], receivedAt: Instant, authority: String? = nil
    ) -> TokenResponse {
        if status == 429 || (500...599).contains(status) {
            var parsedError: ServerError?
            if let json = try? JSONValue.parse(body) {
                parsedError = try? serverError(from: json, status: status)
            }
            return .serviceFailure(ServiceFailure(
                status: status, retryAfter: retryAfter(headers), serverError: parsedError))
        }
        guard status == 200 || status == 400 || status == 401 || status == 403 else {
            return .malformed(MalformedResponse(
                status: status, message: "HTTP \(status) is not a token endpoint answer (expected 200, or 400 with an OAuth error)\(bodyHint(body, headers))"))
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            let message = notJSONMessage(status: status, body: body, headers: headers, error: error)
            if status != 200 { return .requestRejected(errorFromStatus(status, message)) }
            return .malformed(MalformedResponse(status: status, message: message, parseError: error))
        }
        guard case .object(let object) = json else {
            let message = "HTTP \(status) body is a JSON \(json.kindName), expected an object"
            if status != 200 { return .requestRejected(errorFromStatus(status, message)) }
            return .malformed(MalformedResponse(status: status, message: message))
        }
        do {
            if object["error"] != nil {
                return try classifyError(json, status: status, authority: authority)
            }
            guard status == 200 else {
                return .requestRejected(errorFromStatus(status, "HTTP \(status) body has no \"error\" field"))
            }
            return .success(try tokens(from: json, receivedAt: receivedAt))
        } catch {
            return .malformed(MalformedResponse(status: status, message: "HTTP \(status) token response: \(error.reason)"))
        }
    }

    // MARK: - Errors

    private static let interactionSuberrors: [String: InteractionReason] = [
        "basic_action": .basicAction, "additional_action": .additionalAction, "message_only": .messageOnly,
        "consent_required": .consentRequired, "user_password_expired": .userPasswordExpired,
    ]

    private static func classifyError(_ json: JSONValue, status: Int, authority: String?) throws(FieldError) -> TokenResponse {
        let server = try serverError(from: json, status: status)
        let error = server.error.lowercased()
        let suberror = server.suberror?.lowercased()
        if suberror == "protection_policy_required", error == "unauthorized_client" || error == "invalid_grant" {
            let clientInfo = try optionalClientInfo(json)
            return .protectionPolicyRequired(ProtectionPolicyRequired(
                displayableID: try optionalString(json, "adi"),
                homeAccountID: clientInfo?.homeAccountID,
                tenantID: clientInfo?.utid ?? tenant(of: authority),
                authority: authority,
                correlationID: server.correlationID,
                serverError: server))
        }
        if server.errorCodes.contains(53009) {
            return .capabilityMissing(server)
        }
        if let suberror, let reason = BadRefreshTokenReason(rawValue: suberror) {
            return .badRefreshToken(BadRefreshToken(reason: reason, claimsChallenge: server.claimsChallenge, serverError: server))
        }
        if let suberror, let reason = interactionSuberrors[suberror] {
            return .interactionRequired(InteractionRequired(reason: reason, claimsChallenge: server.claimsChallenge, serverError: server))
        }
        switch error {
        case "interaction_required", "login_required", "consent_required":
            let reason: InteractionReason = suberror.map { .other($0) } ?? .interactionRequired
            return .interactionRequired(InteractionRequired(reason: reason, claimsChallenge: server.claimsChallenge, serverError: server))
        case "invalid_grant":
            let reason: InteractionReason = suberror.map { .other($0) } ?? .invalidGrant
            return .interactionRequired(InteractionRequired(reason: reason, claimsChallenge: server.claimsChallenge, serverError: server))
        default:
            return .requestRejected(server)
        }
    }

    /// A refusal (400, 401, 403) that carries no OAuth error, classified by its status alone.
    private static func errorFromStatus(_ status: Int, _ message: String) -> ServerError {
        let error = switch status {
        case 401: "invalid_client"
        case 403: "unauthorized_client"
        default: "invalid_request"
        }
        return ServerError(status: status, error: error, errorDescription: message, derivedFromStatus: true)
    }

    private static func serverError(from json: JSONValue, status: Int) throws(FieldError) -> ServerError {
        guard let error = try optionalString(json, "error"), !error.isEmpty else {
            throw FieldError(reason: "\"error\" is missing or empty")
        }
        var codes: [Int64] = []
        if let raw = json["error_codes"], !raw.isNull {
            guard let array = raw.arrayValue else { throw FieldError(reason: "\"error_codes\" is a \(raw.kindName), expected an array of integers") }
            for element in array {
                guard case .int(let code) = element else { throw FieldError(reason: "\"error_codes\" holds a \(element.kindName), expected integers") }
                codes.append(code)
            }
        }
        let claims = try optionalString(json, "claims")
        if let claims, !claims.isEmpty {
            guard case .object? = try? JSONValue.parse(claims) else {
                throw FieldError(reason: "\"claims\" is not the text of a JSON object")
            }
        }
        return ServerError(
            status: status, error: error, errorDescription: try optionalString(json, "error_description"),
            errorCodes: codes, suberror: try optionalString(json, "suberror"),
            correlationID: try optionalString(json, "correlation_id"), traceID: try optionalString(json, "trace_id"),
            claimsChallenge: (claims?.isEmpty ?? true) ? nil : claims)
    }

    // MARK: - Success

    private static func tokens(from json: JSONValue, receivedAt: Instant) throws(FieldError) -> TokenSet {
        guard let accessToken = try optionalString(json, "access_token"), !accessToken.isEmpty else {
            throw FieldError(reason: "\"access_token\" is missing or empty")
        }
        let expiresIn: Int64
        switch json["expires_in"] {
        case nil, .null?:
            expiresIn = 0  // unknown lifetime: treat as already expired, so it is never served from cache
        case .int(let seconds)? where seconds >= 0:
            expiresIn = seconds
        case .string(let text)? where !text.isEmpty && text.utf8.allSatisfy({ (48...57).contains($0) }) && Int64(text) != nil:
            expiresIn = Int64(text)!
        case let other?:
            throw FieldError(reason: "\"expires_in\" is \(other.kindName == "string" ? "a string that is not a number of seconds" : "a \(other.kindName)"), expected a non-negative integer")
        }
        let scopes = (try optionalString(json, "scope") ?? "").split(separator: " ").map(String.init)
        let refresh = try optionalString(json, "refresh_token").flatMap { $0.isEmpty ? nil : SecretToken($0) }
        let id = try optionalString(json, "id_token").flatMap { $0.isEmpty ? nil : SecretToken($0) }
        return TokenSet(
            accessToken: SecretToken(accessToken), refreshToken: refresh, idToken: id,
            tokenType: try optionalString(json, "token_type") ?? "Bearer",
            expiresOn: receivedAt.advanced(by: .seconds(min(expiresIn, Int64.max / 1000))),
            scopes: scopes, clientInfo: try optionalClientInfo(json))
    }

    // MARK: - Helpers

    struct FieldError: Error { var reason: String }

    private static func optionalString(_ json: JSONValue, _ key: String) throws(FieldError) -> String? {
        guard let value = json[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw FieldError(reason: "\"\(key)\" is a \(value.kindName), expected a string") }
        return text
    }

    private static func optionalClientInfo(_ json: JSONValue) throws(FieldError) -> ClientInfo? {
        guard let encoded = try optionalString(json, "client_info"), !encoded.isEmpty else { return nil }
        switch ClientInfo.decode(encoded) {
        case .success(let info): return info
        case .failure(let error): throw FieldError(reason: error.reason)
        }
    }

    /// `Retry-After` in its delay-seconds form; an HTTP-date is ignored (no clock here).
    static func retryAfter(_ headers: [(name: String, value: String)]) -> TimeSpan? {
        guard let raw = headers.first(where: { $0.name.lowercased() == "retry-after" })?.value else { return nil }
        let trimmed = raw.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        let text = String(trimmed)
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let seconds = Int64(text), seconds <= 86_400 * 365 else {
            return nil
        }
        return .seconds(seconds)
    }

    /// The tenant segment of `https://host/{tenant}[/…]`.
    static func tenant(of authority: String?) -> String? {
        guard let authority, let schemeEnd = authority.firstRange(of: "://") else { return nil }
        let path = authority[schemeEnd.upperBound...].split(separator: "/", omittingEmptySubsequences: true)
        return path.count >= 2 ? String(path[1]) : nil
    }

    private static func notJSONMessage(status: Int, body: [UInt8], headers: [(name: String, value: String)], error: JSONParseError) -> String {
        if error.code == .empty {
            return "HTTP \(status) response has an empty body; expected a JSON token response"
        }
        return "HTTP \(status) response is not JSON\(bodyHint(body, headers)): \(error.description)"
    }

    private static func bodyHint(_ body: [UInt8], _ headers: [(name: String, value: String)]) -> String {
        let contentType = headers.first(where: { $0.name.lowercased() == "content-type" })?.value
        let firstByte = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
        if firstByte == UInt8(ascii: "<") {
            return " (the server sent an HTML/XML page\(contentType.map { ", content-type \($0)" } ?? ""))"
        }
        if body.isEmpty { return " (empty body)" }
        return contentType.map { " (content-type \($0))" } ?? ""
    }
}
