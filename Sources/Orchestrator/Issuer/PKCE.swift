import ComplianceCore
import Crypto

/// Proof Key for Code Exchange (RFC 7636), S256 only.
public struct PKCE: Sendable, Hashable, CustomStringConvertible {
    /// The secret sent with the token request; never printed.
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent with the authorize request.
    public var challenge: String { Self.challenge(for: verifier) }
    public let method = "S256"

    /// A fresh verifier of 43 characters from 32 random bytes.
    public init() {
        var generator = SystemRandomNumberGenerator()
        verifier = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public init(verifier: String) { self.verifier = verifier }

    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    public var description: String { "PKCE(S256, verifier: <redacted>)" }
}

/// Random URL-safe text for OAuth's `state` and `nonce`.
public enum RandomToken {
    /// `byteCount` random bytes, base64url-encoded without padding.
    public static func make(byteCount: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
