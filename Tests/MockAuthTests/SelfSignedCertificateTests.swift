import Foundation
import JSON
import SwiftASN1
import Testing
import LocalServers
import X509

@testable import MockAuth

/// `--tls-self-signed`'s certificate: an end-entity certificate clients trust as itself, which
/// OpenSSL (curl, Python) and rustls both accept (``LiveTLSTests`` has curl).
@Suite("Self-signed certificate")
struct SelfSignedCertificateTests {
    @Test("the certificate is an end entity for 127.0.0.1 and localhost, with serverAuth and no CA rights")
    func endEntity() throws {
        let generated = try SelfSignedCertificate.generate()
        let certificate = try Certificate(pemEncoded: generated.certificatePEM)
        #expect(certificate.issuer == certificate.subject)
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
        #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        // No key usage: with keyCertSign it would be a CA's; without it, OpenSSL would not
        // count the certificate as self-signed.
        #expect(try certificate.extensions.keyUsage == nil)
        #expect(try certificate.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        let names = try #require(try certificate.extensions.subjectAlternativeNames)
        #expect(names.contains(.dnsName("localhost")))
        #expect(names.contains(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))))
    }

    @Test("a rustls client (reqwest) trusting cert.pem accepts the server for 127.0.0.1 and localhost")
    func rustlsAccepts() async throws {
        let python = try await PythonVenv.python("mockauth-rustls-venv", packages: ["pyreqwest==0.15.1"], module: "pyreqwest")
        let script = TestSupport.repositoryRoot.appendingPathComponent("Tests/MockAuthTests/rustls_probe.py").path
        let result = try await LiveServer.run(https: true) { server in
            try await Command.run(python, [script, server.url, server.certificatePath ?? ""], timeout: .seconds(60))
        }
        try #require(!result.timedOut && result.status == 0, "the rustls probe failed: \(result.stderr)")
        let report = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // A CA certificate as the server's was refused: CaUsedAsEndEntity.
        #expect(report == ["127.0.0.1": 200, "localhost": 200], "\(report)")
    }
}
