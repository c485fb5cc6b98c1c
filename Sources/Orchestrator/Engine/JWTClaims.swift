import ComplianceCore
import JSON

/// Reads a JWT's payload (no signature check: the engine only reports what the issuer put
/// in a token it received over its own connection).
public enum JWTClaims {
    /// The payload object, or nil when `token` is not a JWT.
    public static func payload(of token: String) -> JSONObject? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])) else { return nil }
        return (try? JSONValue.parse(bytes))?.objectValue
    }
}
