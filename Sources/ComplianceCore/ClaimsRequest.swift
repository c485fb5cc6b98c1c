import JSON

/// Builds the OAuth `claims` request parameter from client capabilities and a server
/// claims challenge.
///
/// Capabilities become `{"access_token":{"xms_cc":{"values":[…]}}}`. A challenge (the
/// JSON text of an error's `claims` field) is merged into that with MSAL.NET's rule:
/// objects merge recursively, arrays concatenate, and when both sides are scalars the
/// challenge wins. When the two sides are of different kinds and the capabilities side
/// is an object or array, the capabilities side is kept: the `xms_cc` declaration is
/// what makes app-protection remediation possible, so a challenge can add to it but
/// never erase it.
public enum ClaimsRequest: Sendable {
    /// The claims object declaring `capabilities`, or `nil` when there are none.
    public static func capabilitiesClaims(_ capabilities: [String]) -> JSONValue? {
        guard !capabilities.isEmpty else { return nil }
        let values = JSONValue.array(capabilities.map(JSONValue.string))
        return ["access_token": ["xms_cc": ["values": values]]]
    }

    /// Merges `challenge` into `base` (see the type's documentation for the rule).
    public static func merge(_ base: JSONValue, _ challenge: JSONValue) -> JSONValue {
        switch (base, challenge) {
        case (.object(var merged), .object(let incoming)):
            for (key, value) in incoming {
                if let existing = merged[key] {
                    merged[key] = merge(existing, value)
                } else {
                    merged[key] = value
                }
            }
            return .object(merged)
        case (.array(let first), .array(let second)):
            return .array(first + second)
        case (.object, _), (.array, _):
            return base
        default:
            return challenge
        }
    }

    /// The `claims` parameter text for a request, or `nil` when there is nothing to send.
    ///
    /// - Parameters:
    ///   - capabilities: the app's client capabilities (`["protapp"]`).
    ///   - challenge: the server's claims challenge JSON text, if any; must be an object.
    public static func parameter(capabilities: [String], challenge: String?) throws(ClaimsError) -> String? {
        var result = capabilitiesClaims(capabilities)
        if let challenge {
            let parsed: JSONValue
            do {
                parsed = try JSONValue.parse(challenge)
            } catch {
                throw ClaimsError(code: .invalidJSON, reason: "the claims challenge is not valid JSON (\(error.description))")
            }
            guard case .object = parsed else {
                throw ClaimsError(code: .notAnObject, reason: "the claims challenge is a JSON \(parsed.kindName); it must be an object")
            }
            result = result.map { merge($0, parsed) } ?? parsed
        }
        return result?.encodedString()
    }

    /// True when `claims` declares `capability` under `access_token.xms_cc.values`; the value
    /// is compared ignoring case (``ComplianceCore/declaresProtection(_:)``), the claim names exactly.
    public static func declares(_ capability: String, in claims: JSONValue) -> Bool {
        let values = claims["access_token"]?["xms_cc"]?["values"]?.arrayValue ?? []
        return values.contains { $0.stringValue?.lowercased() == capability.lowercased() }
    }
}

/// A claims challenge that cannot be sent back to the server.
public struct ClaimsError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    fileprivate enum Base: String, Sendable, Hashable, Codable {
        case invalidJSON, notAnObject
    }

    /// The kind of problem, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        fileprivate let base: Base
        /// The challenge text is not JSON.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// The challenge is JSON but not an object.
        public static let notAnObject = Code(base: .notAnObject)
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// What was wrong, in words.
    public let reason: String

    init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// What happened and what to do.
    public var message: String {
        "The server's claims challenge cannot be answered: \(reason). The request was not sent; report this to the service owner."
    }

    public var description: String { "cannot build the claims parameter: \(reason)" }
}
