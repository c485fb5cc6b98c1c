import HTTPClient
import JSON

/// A device authorization answer (RFC 8628 §3.2).
public struct DeviceAuthorization: Sendable {
    /// The code the client polls with; a secret.
    public var deviceCode: String
    public var userCode: String
    public var verificationURI: String
    public var verificationURIComplete: String?
    /// Seconds the codes live.
    public var expiresIn: Int
    /// Seconds between polls (5 when the issuer names none).
    public var interval: Int
    /// The issuer's own instructions, when it gives them (Entra does).
    public var message: String?

    /// The codes' lifetime from `expires_in`: 900 s when absent, at least 1 s, at most a day
    /// (an issuer's huge number would overflow the deadline's arithmetic; Entra's is 900 s).
    static func lifetime(expiresIn: Int64?) -> Int {
        Int(min(max(1, expiresIn ?? 900), 86_400))
    }

    /// Seconds between polls from `interval`: 5 when absent, between 1 and 60.
    static func pollInterval(_ interval: Int64?) -> Int {
        Int(min(max(1, interval ?? 5), 60))
    }
}

extension IssuerClient {
    /// Starts a device-code sign-in at the discovery document's `device_authorization_endpoint`.
    ///
    /// - Throws: ``IssuerError/Code/misconfigured`` when the issuer has no such endpoint or
    ///   refuses the request (its error quoted); ``IssuerError/Code/serviceFailure`` for 5xx;
    ///   ``IssuerError/Code/network``.
    public func deviceAuthorization(scopes: [String], claims: String?) async throws(IssuerError) -> DeviceAuthorization {
        let metadata = try await discover()
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw IssuerError(.misconfigured, "the issuer's discovery document names no device_authorization_endpoint: it offers no device-code sign-in", endpoint: metadata.issuer)
        }
        var fields: [(String, String)] = [("client_id", configuration.clientID), ("scope", scopes.joined(separator: " "))]
        if let claims { fields.append(("claims", claims)) }
        let response = try await send(.form(url: endpoint, fields: fields, headers: ["Accept": "application/json"]), endpoint: endpoint)
        let json = try? JSONValue.parse(response.body)
        guard response.status == 200 else {
            if response.status >= 500 || response.status == 429 {
                throw IssuerError(.serviceFailure, "the device authorization endpoint answered HTTP \(response.status)", endpoint: endpoint, httpStatus: response.status)
            }
            let reason = [json?["error"]?.stringValue, json?["error_description"]?.stringValue?.split(whereSeparator: \.isNewline).first.map(String.init)]
                .compactMap { $0 }.joined(separator: ": ")
            throw IssuerError(.misconfigured, "the device authorization endpoint refused the request (HTTP \(response.status)\(reason.isEmpty ? "" : ", \(reason)"))", endpoint: endpoint)
        }
        guard let json, let deviceCode = json["device_code"]?.stringValue, let userCode = json["user_code"]?.stringValue,
            let verification = json["verification_uri"]?.stringValue ?? json["verification_url"]?.stringValue
        else {
            throw IssuerError(.serviceFailure, "the device authorization answer lacks device_code, user_code or verification_uri", endpoint: endpoint)
        }
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURI: verification,
            verificationURIComplete: json["verification_uri_complete"]?.stringValue,
            expiresIn: DeviceAuthorization.lifetime(expiresIn: json["expires_in"]?.intValue),
            interval: DeviceAuthorization.pollInterval(json["interval"]?.intValue),
            message: json["message"]?.stringValue)
    }
}
