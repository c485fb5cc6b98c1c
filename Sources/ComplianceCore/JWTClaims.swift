import JSON

/// Reads a JWT's payload (no signature check: the engine only reports what the issuer put
/// in a token it received over its own connection).
public enum JWTClaims {
    /// The payload object, or nil when `token` is not a JWT.
    public static func payload(of token: String) -> JSONObject? {
        // Split the UTF-8 bytes: splitting by Character walks grapheme clusters, slow on a 1 KB token.
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        return (try? JSONValue.parse(bytes))?.objectValue
    }
}
