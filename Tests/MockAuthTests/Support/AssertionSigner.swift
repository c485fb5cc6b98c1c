import Crypto
import _CryptoExtras
import Foundation
import JSON

@testable import MockAuth

/// Signs client assertions with the demo tenant's `contoso-daemon` certificate key
/// (`mocks/fixtures/certs/`), as a confidential client's library would.
struct AssertionSigner {
    let key: _RSA.Signing.PrivateKey
    let certificateDER: [UInt8]

    static func demo() throws -> AssertionSigner {
        let certs = TestSupport.repositoryRoot.appendingPathComponent("mocks/fixtures/certs")
        let keyPEM = try String(contentsOf: certs.appendingPathComponent("contoso-daemon-key.pem"), encoding: .utf8)
        let certPEM = try String(contentsOf: certs.appendingPathComponent("contoso-daemon-cert.pem"), encoding: .utf8)
        let base64 = certPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return AssertionSigner(
            key: try _RSA.Signing.PrivateKey(pemRepresentation: keyPEM), certificateDER: Array(Data(base64Encoded: base64) ?? Data()))
    }

    /// A signed assertion; `header` and `claims` members override the defaults.
    func assertion(
        audience: String, clientId: String = "contoso-daemon", alg: String = "RS256", sha256Thumbprint: Bool = false,
        lifetime: TimeInterval = 600, now: Date = Date(), jti: String = UUID().uuidString, header extraHeader: JSONObject = [:],
        claims extraClaims: JSONObject = [:]
    ) throws -> String {
        var header = JSONObject([("alg", .string(alg)), ("typ", "JWT")])
        if sha256Thumbprint {
            header["x5t#S256"] = .string(Base64URL.encode(SHA256.hash(data: certificateDER)))
        } else {
            header["x5t"] = .string(Base64URL.encode(Insecure.SHA1.hash(data: certificateDER)))
        }
        for (name, value) in extraHeader { header[name] = value }
        let seconds = Int64(now.timeIntervalSince1970)
        var claims = JSONObject([
            ("aud", .string(audience)), ("iss", .string(clientId)), ("sub", .string(clientId)),
            ("jti", .string(jti)), ("nbf", .int(seconds)), ("exp", .int(seconds + Int64(lifetime))),
        ])
        for (name, value) in extraClaims { claims[name] = value }
        let input = Base64URL.encode(JSONValue.object(header).encoded()) + "." + Base64URL.encode(JSONValue.object(claims).encoded())
        let digest = SHA256.hash(data: Array(input.utf8))
        let signature = try key.signature(for: digest, padding: alg == "PS256" ? .PSS : .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}
