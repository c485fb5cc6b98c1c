import Foundation
import JSON

/// Compact RS256 JSON Web Tokens: signing, and verification against the issuer's key.
public enum JWT {
    /// Why a token was refused; the MAM service maps each to a 401.
    public enum VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
        case malformed
        case unsupportedAlgorithm(String)
        case unknownKey
        case badSignature
        case expired
        case notYetValid
        case wrongAudience(String)

        public var description: String {
            switch self {
            case .malformed: "the token is not a compact JWS with a JSON header and payload"
            case .unsupportedAlgorithm(let alg): "the token's algorithm '\(alg)' is not RS256"
            case .unknownKey: "the token's kid does not match the issuer's signing key"
            case .badSignature: "the token's signature does not verify"
            case .expired: "the token has expired"
            case .notYetValid: "the token is not yet valid"
            case .wrongAudience(let aud): "the token's audience '\(aud)' is not this service"
            }
        }
    }

    /// Signs `claims` with `key`: header `{"typ":"JWT","alg":"RS256","kid":…}`.
    public static func sign(_ claims: JSONValue, with key: SigningKey) throws -> String {
        let signingInput = key.headerSegment + "." + Base64URL.encode(claims.encoded())
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Decodes the payload without verifying anything; `nil` when it is not a JWT.
    public static func unverifiedClaims(of token: String) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return nil }
        guard let value = try? JSONValue.parse(bytes), value.objectValue != nil else { return nil }
        return value
    }

    /// Verifies signature, `exp`/`nbf` (with `leeway` seconds) and, when given, the audience;
    /// returns the claims.
    /// ``verify(_:key:audience:now:leeway:)`` with the published key the token's `kid` names.
    static func verify(_ token: String, keys: KeyRing, audience: String?, now: Date) throws(VerificationFailure) -> JSONValue {
        guard let first = token.split(separator: ".", maxSplits: 1).first, let bytes = Base64URL.decode(first),
            let header = try? JSONValue.parse(bytes), let kid = header["kid"]?.stringValue
        else { throw .malformed }
        guard let key = keys.key(kid: kid, now: now) else { throw .unknownKey }
        return try verify(token, key: key, audience: audience, now: now)
    }

    public static func verify(
        _ token: String, key: SigningKey, audience: String?, now: Date, leeway: TimeInterval = 60
    ) throws(VerificationFailure) -> JSONValue {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]),
            let header = try? JSONValue.parse(headerBytes),
            let signature = Base64URL.decode(parts[2]),
            let claims = unverifiedClaims(of: token)
        else { throw .malformed }
        let alg = header["alg"]?.stringValue ?? ""
        guard alg == "RS256" else { throw .unsupportedAlgorithm(alg) }
        guard header["kid"]?.stringValue == key.kid else { throw .unknownKey }
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        guard key.isValidSignature(signature, for: signingInput) else { throw .badSignature }
        let seconds = now.timeIntervalSince1970
        guard let exp = claims["exp"]?.doubleValue, exp + leeway > seconds else { throw .expired }
        if let nbf = claims["nbf"]?.doubleValue, nbf - leeway > seconds { throw .notYetValid }
        if let audience {
            let aud = claims["aud"]?.stringValue ?? ""
            guard aud == audience else { throw .wrongAudience(aud) }
        }
        return claims
    }
}
