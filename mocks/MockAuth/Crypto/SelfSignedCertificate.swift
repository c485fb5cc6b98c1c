import Crypto
import Foundation
import SwiftASN1
import X509

/// A self-signed server certificate for loopback use: SANs `localhost` and `127.0.0.1`.
///
/// `mockauth serve --tls-self-signed DIR` writes the certificate to `DIR/cert.pem` (and
/// the key to `DIR/key.pem`) so clients can trust exactly this server.
public struct SelfSignedCertificate: Sendable {
    /// The certificate, PEM.
    public let certificatePEM: String
    /// Its P-256 private key, PKCS#8 PEM.
    public let privateKeyPEM: String

    /// Generates a key and a certificate valid from one hour ago for `days` days.
    public static func generate(commonName: String = "mockauth", days: Int = 30, now: Date = Date()) throws -> SelfSignedCertificate {
        let key = P256.Signing.PrivateKey()
        let certificateKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            CommonName(commonName)
            OrganizationName("mockauth test issuer")
        }
        // An end-entity certificate (CA:FALSE) that clients trust as itself. No key usage:
        // OpenSSL counts a certificate as self-signed only when a key usage, if present,
        // allows signing certificates, which RFC 5280 allows only to a CA; and rustls
        // (webpki) refuses a CA certificate as a server's.
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames([
                .dnsName("localhost"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            ])
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: certificateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(TimeInterval(days) * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: certificateKey)
        return SelfSignedCertificate(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            privateKeyPEM: key.pemRepresentation)
    }

    /// Writes `cert.pem` and `key.pem` into `directory` (created when missing); returns the cert path.
    @discardableResult
    public func write(to directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certPath = (directory as NSString).appendingPathComponent("cert.pem")
        let keyPath = (directory as NSString).appendingPathComponent("key.pem")
        try Data(certificatePEM.utf8).write(to: URL(fileURLWithPath: certPath))
        try Data(privateKeyPEM.utf8).write(to: URL(fileURLWithPath: keyPath))
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        return certPath
    }
}
