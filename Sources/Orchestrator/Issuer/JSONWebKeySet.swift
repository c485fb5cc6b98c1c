import ComplianceCore
import Crypto
import Foundation
import JSON
import _CryptoExtras

/// An issuer's signing keys (RFC 7517), as its `jwks_uri` serves them: the RSA and P-256
/// keys usable for signatures. Keys of other types, curves or uses are left out, not errors
/// (an issuer may publish encryption keys beside its signing keys).
public struct JSONWebKeySet: Sendable {
    /// One signing key.
    public struct Key: Sendable {
        public enum Material: Sendable {
            case rsa(_RSA.Signing.PublicKey)
            case p256(P256.Signing.PublicKey)
        }

        /// `kid`; nil when the issuer gave none (then it must be the only key).
        public var id: String?
        /// `alg` when the key names one: then only that algorithm may use it.
        public var algorithm: String?
        public var material: Material
    }

    public var keys: [Key]

    public init(keys: [Key]) { self.keys = keys }

    /// Reads a JWKS document; names what is wrong with it. A document with no usable
    /// signing key is an error (no id_token could ever be checked).
    public init(json: JSONValue) throws(IDTokenError) {
        guard let entries = json["keys"]?.arrayValue else { throw IDTokenError("the issuer's key set has no 'keys' array") }
        var keys: [Key] = []
        for entry in entries {
            if let use = entry["use"]?.stringValue, use != "sig" { continue }
            let id = entry["kid"]?.stringValue
            let algorithm = entry["alg"]?.stringValue
            switch entry["kty"]?.stringValue {
            case "RSA":
                guard let n = entry["n"]?.stringValue.flatMap(Base64URL.decode), let e = entry["e"]?.stringValue.flatMap(Base64URL.decode),
                    let key = try? _RSA.Signing.PublicKey(n: n, e: e)
                else { throw IDTokenError("the issuer's RSA key \(id ?? "without kid") has no usable 'n' and 'e'") }
                keys.append(Key(id: id, algorithm: algorithm, material: .rsa(key)))
            case "EC":
                guard entry["crv"]?.stringValue == "P-256" else { continue }
                guard let x = entry["x"]?.stringValue.flatMap(Base64URL.decode), let y = entry["y"]?.stringValue.flatMap(Base64URL.decode),
                    x.count == 32, y.count == 32, let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
                else { throw IDTokenError("the issuer's P-256 key \(id ?? "without kid") has no usable 'x' and 'y'") }
                keys.append(Key(id: id, algorithm: algorithm, material: .p256(key)))
            default:
                continue
            }
        }
        guard !keys.isEmpty else { throw IDTokenError("the issuer's key set holds no RSA or P-256 signing key") }
        self.keys = keys
    }

    /// The key a token header names: by `kid`, or the only key when the header names none.
    public func key(id: String?) -> Key? {
        if let id { return keys.first { $0.id == id } }
        return keys.count == 1 ? keys[0] : nil
    }
}

extension JSONWebKeySet.Key {
    /// The algorithms id_tokens may be signed with (RFC 7518 §3): `none` and HMAC never.
    public static let algorithms: Set<String> = ["RS256", "PS256", "ES256"]

    /// Whether `signature` over `input` is valid under `algorithm` with this key.
    public func verifies(_ signature: [UInt8], over input: [UInt8], algorithm: String) -> Bool {
        if let own = self.algorithm, own != algorithm { return false }
        switch (material, algorithm) {
        case (.rsa(let key), "RS256"):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .insecurePKCS1v1_5)
        case (.rsa(let key), "PS256"):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .PSS)
        case (.p256(let key), "ES256"):
            // JWS carries R || S (64 bytes), not DER.
            guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: input)
        default:
            return false
        }
    }
}
