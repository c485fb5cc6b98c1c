import ComplianceCore
import JSON

/// An OpenID Connect id_token (a compact JWS), parsed but not yet trusted.
///
/// Validation follows OpenID Connect Core 1.0 §3.1.3.7: here the signature with the issuer's
/// key (RS256, PS256 or ES256 only: `none` and HMAC are refused); the claims are checked by
/// ComplianceCore's ``IDTokenClaims`` (issuer, audience, lifetime at the engine's times, nonce).
public struct IDToken: Sendable {
    public let algorithm: String
    public let keyID: String?
    public let claims: JSONValue
    private let signingInput: [UInt8]
    private let signature: [UInt8]

    /// Splits and decodes `token`; the header must name an accepted algorithm.
    public init(_ token: String) throws(IDTokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw IDTokenError("the id_token is not a signed JWT (\(parts.count) parts, not 3)") }
        guard let headerBytes = Base64URL.decode(String(parts[0])), let header = try? JSONValue.parse(headerBytes), header.objectValue != nil else {
            throw IDTokenError("the id_token's header is not base64url JSON")
        }
        guard let payloadBytes = Base64URL.decode(String(parts[1])), let payload = try? JSONValue.parse(payloadBytes), payload.objectValue != nil else {
            throw IDTokenError("the id_token's claims are not base64url JSON")
        }
        guard let signature = Base64URL.decode(String(parts[2])) else { throw IDTokenError("the id_token's signature is not base64url") }
        guard let algorithm = header["alg"]?.stringValue else { throw IDTokenError("the id_token's header names no 'alg'") }
        guard JSONWebKeySet.Key.algorithms.contains(algorithm) else {
            throw IDTokenError("the id_token is signed with '\(algorithm)'; only RS256, PS256 and ES256 are accepted")
        }
        self.algorithm = algorithm
        self.keyID = header["kid"]?.stringValue
        self.claims = payload
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }

    /// Checks the signature with the key the header names.
    public func verifySignature(with keys: JSONWebKeySet) throws(IDTokenError) {
        guard let key = keys.key(id: keyID) else {
            throw IDTokenError(
                keyID.map { "the id_token is signed with key '\($0)', which the issuer's key set does not hold" }
                    ?? "the id_token names no key ('kid') and the issuer has several", unknownKeyID: keyID ?? "")
        }
        guard key.verifies(signature, over: signingInput, algorithm: algorithm) else {
            throw IDTokenError("the id_token's \(algorithm) signature does not verify with the issuer's key \(keyID ?? "")")
        }
    }

    /// Checks the claims against `expected` at `times` (``IDTokenClaims``) and returns who
    /// signed in.
    public func validate(_ expected: IDTokenClaims.Expectations, at times: IDTokenClaims.Times) throws(IDTokenError) -> TokenIdentity {
        try IDTokenClaims(claims).validate(expected, at: times)
    }
}
