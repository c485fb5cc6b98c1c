import HTTPClient
import JSON
import Logging

/// Talks to the MAM (app management) service: enroll, policy check-in, unenroll, report
/// compliance. Every call carries a bearer token for the MAM resource. Answers come back as
/// the service's JSON with its enrollment status code; failures as ``MAMClientError``.
public struct MAMClient: Sendable {
    /// The MAM resource's scope; this resource is never behind the app-protection CA policy.
    public static let scope = "https://msmamservice.api.application/.default"

    /// Base URL of the service, e.g. `http://127.0.0.1:8080/mam/v1`.
    public let baseURL: String
    private let http: HTTPClient
    private let logger: Logger

    public init(baseURL: String, http: HTTPClient, logger: Logger) {
        self.baseURL = baseURL.trimmingTrailingSlashes
        self.http = http
        self.logger = logger
    }

    /// The same client for the service at `baseURL` (another issuer's MAM service).
    public func at(baseURL: String) -> MAMClient {
        MAMClient(baseURL: baseURL, http: http, logger: logger)
    }

    /// `POST enroll {"appId"}`.
    public func enroll(appID: String, token: String) async throws(MAMClientError) -> MAMReply {
        try await post("enroll", ["appId": .string(appID)], token: token)
    }

    /// `POST checkin {"enrollmentId", "policyVersion"?}`.
    public func checkIn(enrollmentID: String, policyVersion: Int64?, token: String) async throws(MAMClientError) -> MAMReply {
        var body: JSONObject = ["enrollmentId": .string(enrollmentID)]
        if let policyVersion { body["policyVersion"] = .int(policyVersion) }
        return try await post("checkin", body, token: token)
    }

    /// `POST unenroll {"enrollmentId"}`.
    public func unenroll(enrollmentID: String, token: String) async throws(MAMClientError) -> MAMReply {
        try await post("unenroll", ["enrollmentId": .string(enrollmentID)], token: token)
    }

    /// `POST report-compliance {"enrollmentId", "policyVersion", "compliant": true}`.
    public func reportCompliance(enrollmentID: String, policyVersion: Int64?, token: String) async throws(MAMClientError) -> MAMReply {
        var body: JSONObject = ["enrollmentId": .string(enrollmentID), "compliant": true]
        if let policyVersion { body["policyVersion"] = .int(policyVersion) }
        return try await post("report-compliance", body, token: token)
    }

    private func post(_ operation: String, _ body: JSONObject, token: String) async throws(MAMClientError) -> MAMReply {
        let url = "\(baseURL)/\(operation)"
        let request = HTTPClientRequest.json(url: url, body: JSONValue.object(body).encoded(), headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"])
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request)
        } catch where error.code == .responseTooLarge {
            throw MAMClientError(.malformed, "the MAM service's answer to \(operation) is unusable: \(error.message)", operation: operation, transport: error)
        } catch {
            throw MAMClientError(.network, "cannot reach the MAM service: \(error.message)", operation: operation, transport: error)
        }
        logger.debug("mam reply", metadata: ["mam.operation": "\(operation)", "http.status": "\(response.status)"])
        return try MAMReply(response: response, operation: operation)
    }
}

/// A MAM service answer: HTTP 200 with a JSON object carrying `status` (enrollment status
/// code) or `complianceStatus`.
public struct MAMReply: Sendable, Hashable {
    public let json: JSONObject
    /// The SDK's enrollment status code (`status`), when present.
    public var statusCode: Int? { json["status"]?.intValue.map(Int.init) }

    init(response: HTTPClientResponse, operation: String) throws(MAMClientError) {
        let status = response.status
        if status == 401 || status == 403 {
            let challenge = response.headers["WWW-Authenticate"]
            let error = challenge.flatMap { $0.contains("insufficient_claims") ? " (insufficient_claims: continuous access evaluation)" : nil } ?? ""
            throw MAMClientError(
                .unauthorized, "the MAM service refused the token for \(operation) (HTTP \(status))\(error)", operation: operation, httpStatus: status,
                wwwAuthenticate: challenge)
        }
        guard status == 200 else {
            let seconds = response.retryAfter().map { Int($0.components.seconds) }
            let reason = status >= 500 || status == 429 ? "is failing" : "refused the request"
            throw MAMClientError(.serviceFailure, "the MAM service \(reason) for \(operation): HTTP \(status)\(Self.errorText(response.body))", operation: operation, httpStatus: status, retryAfterSeconds: seconds)
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(response.body)
        } catch {
            throw MAMClientError(.malformed, "the MAM service's answer to \(operation) is not valid JSON: \(error)", operation: operation, httpStatus: status)
        }
        guard case .object(let object) = parsed else {
            throw MAMClientError(.malformed, "the MAM service's answer to \(operation) is a JSON \(parsed.kindName), not an object", operation: operation, httpStatus: status)
        }
        json = object
    }

    private static func errorText(_ body: [UInt8]) -> String {
        guard let json = try? JSONValue.parse(body), let text = json["error_description"]?.stringValue ?? json["message"]?.stringValue ?? json["error"]?.stringValue else {
            return ""
        }
        return " (\(text))"
    }
}
