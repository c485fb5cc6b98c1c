import Crypto
import _CryptoExtras
import Foundation
import X509

/// A certificate registered on a confidential client (the fixture's `certificates`: base64 DER,
/// as `x5c` and Entra's app manifest `keyCredentials[].key` carry it). Client assertions signed
/// with its key authenticate the client.
public struct ClientCertificate: Sendable, Hashable {
    /// The certificate's DER bytes.
    public let der: [UInt8]
    /// SHA-1 of the DER: `x5t` in an assertion's header names the certificate by it.
    public let sha1: [UInt8]
    /// SHA-256 of the DER: `x5t#S256`.
    public let sha256: [UInt8]

    /// Reads base64 DER; `nil` when it is not an X.509 certificate with an RSA key.
    public init?(base64 text: String) {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        der = Array(data)
        sha1 = Array(Insecure.SHA1.hash(data: der))
        sha256 = Array(SHA256.hash(data: der))
        guard publicKey != nil else { return nil }
    }

    /// The certificate's RSA public key.
    var publicKey: _RSA.Signing.PublicKey? {
        guard let certificate = try? Certificate(derEncoded: der) else { return nil }
        return _RSA.Signing.PublicKey(certificate.publicKey)
    }
}
