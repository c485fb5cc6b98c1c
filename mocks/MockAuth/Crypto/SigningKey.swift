import Crypto
import _CryptoExtras
import Foundation
import JSON

/// The issuer's RS256 signing key and its public half as a JWK.
///
/// One key signs every token the mock issues; its `kid` is published in the JWKS at
/// `/{tenant}/discovery/v2.0/keys` and written in each token header.
public struct SigningKey: Sendable {
    /// The key id clients match against the JWKS.
    public let kid: String
    let privateKey: _RSA.Signing.PrivateKey

    /// Generates a fresh 2048-bit key; the `kid` is derived from the public key (RFC 7638 thumbprint).
    public static func generate() throws -> SigningKey {
        try SigningKey(privateKey: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// Loads a PKCS#1 or PKCS#8 PEM private key.
    public init(pemRepresentation: String) throws {
        try self.init(privateKey: _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation))
    }

    init(privateKey: _RSA.Signing.PrivateKey) throws {
        self.privateKey = privateKey
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        let n = Base64URL.encode(Self.trimmed(primitives.modulus))
        let e = Base64URL.encode(Self.trimmed(primitives.publicExponent))
        // RFC 7638: SHA-256 over the required members in lexicographic order.
        let thumbprintInput = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        self.kid = Base64URL.encode(SHA256.hash(data: Array(thumbprintInput.utf8)))
        self.modulus = n
        self.exponent = e
        let header: JSONValue = ["typ": "JWT", "alg": "RS256", "kid": .string(kid)]
        self.headerSegment = Base64URL.encode(header.encoded())
    }

    private let modulus: String
    private let exponent: String
    /// The first segment of every token this key signs: base64url of
    /// `{"typ":"JWT","alg":"RS256","kid":…}`, encoded once rather than per token.
    let headerSegment: String

    /// The public key as a JWK (`kty`, `use`, `kid`, `n`, `e`, `alg`).
    public var jwk: JSONValue {
        [
            "kty": "RSA", "use": "sig", "kid": .string(kid),
            "n": .string(modulus), "e": .string(exponent), "alg": "RS256",
        ]
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 over `data` (public for the issuance benchmark's floor).
    public func sign(_ data: [UInt8]) throws -> [UInt8] {
        let signature = try privateKey.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        return Array(signature.rawRepresentation)
    }

    /// True when `signature` is this key's RS256 signature over `data`.
    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        privateKey.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature),
            for: SHA256.hash(data: data),
            padding: .insecurePKCS1v1_5)
    }

    private static func trimmed(_ data: Data) -> [UInt8] {
        Array(data.drop(while: { $0 == 0 }))
    }
}
