import Crypto
import _CryptoExtras
import Foundation
import JSON

/// A certificate credential (`client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`),
/// checked as Entra checks it: the header names a registered certificate (`x5t#S256` or `x5t`),
/// the signature (RS256 or PS256) verifies with its key, `iss` = `sub` = the client, `aud` is this
/// tenant's token endpoint, `exp` has not passed and `nbf` has come, and `jti` names one assertion.
/// Each refusal is `invalid_client` (HTTP 401) with a message that says what was wrong.
struct ClientAssertion {
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Clock skew allowed on `nbf` (seconds).
    static let skew: TimeInterval = 300

    let header: JSONValue
    let claims: JSONValue
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Splits a compact JWS; AADSTS50027 when it is not one.
    init(_ assertion: String) throws(OAuthError) {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONValue.parse(headerBytes),
            header.objectValue != nil, let claims = JWT.unverifiedClaims(of: assertion), let signature = Base64URL.decode(parts[2])
        else {
            throw .invalidClient(code: 50027, "Invalid JWT token. The client_assertion is not a signed JWT (header.payload.signature, base64url).")
        }
        self.header = header
        self.claims = claims
        self.signingInput = Array((parts[0] + "." + parts[1]).utf8)
        self.signature = signature
    }

    /// Checks the assertion for `client`; `isTokenEndpoint` says whether an `aud` names this
    /// tenant's token endpoint.
    /// `noteUse(jti, digest, expiry)` records the `jti` and says whether it is new for this
    /// assertion (``MockState/noteAssertion(clientId:jti:digest:expiresAt:)``).
    func verify(
        for client: Fixtures.ClientApp, now: Date, isTokenEndpoint: (String) -> Bool, noteUse: (String, [UInt8], Date) -> Bool
    ) throws(OAuthError) {
        let certificate = try registeredCertificate(of: client)
        let alg = header["alg"]?.stringValue ?? ""
        guard let key = certificate.publicKey, ["RS256", "PS256"].contains(alg) else {
            throw .invalidClient(code: 700027, "Client assertion failed signature validation. The algorithm '\(alg)' is not RS256 or PS256.")
        }
        let digest = SHA256.hash(data: signingInput)
        let rsa = _RSA.Signing.RSASignature(rawRepresentation: signature)
        guard key.isValidSignature(rsa, for: digest, padding: alg == "PS256" ? .PSS : .insecurePKCS1v1_5) else {
            throw .invalidClient(
                code: 700027,
                "Client assertion failed signature validation: the signature does not verify with the certificate the header names (\(alg)).")
        }
        let iss = claims["iss"]?.stringValue, sub = claims["sub"]?.stringValue
        guard iss == client.clientId, sub == client.clientId else {
            throw .invalidClient(
                code: 700021,
                "Client assertion application identifier doesn't match 'client_id' parameter: iss '\(iss ?? "")' and sub '\(sub ?? "")' must both be '\(client.clientId)'.")
        }
        let aud = claims["aud"]?.stringValue ?? claims["aud"]?[0]?.stringValue ?? ""
        guard isTokenEndpoint(aud) else {
            throw .invalidClient(
                code: 700023, "Client assertion audience claim does not match Realm issuer: aud '\(aud)' is not this tenant's token endpoint.")
        }
        let seconds = now.timeIntervalSince1970
        guard let exp = claims["exp"]?.doubleValue else {
            throw .invalidClient(code: 700024, "Client assertion is not within its valid time range: it has no 'exp' claim.")
        }
        guard exp > seconds else {
            throw .invalidClient(code: 700024, "Client assertion is not within its valid time range: it expired at \(Int64(exp)), now is \(Int64(seconds)).")
        }
        if let nbf = claims["nbf"]?.doubleValue, nbf - Self.skew > seconds {
            throw .invalidClient(code: 700024, "Client assertion is not within its valid time range: it is not valid before \(Int64(nbf)), now is \(Int64(seconds)).")
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else {
            throw .invalidClient(code: 50027, "Invalid JWT token. The client assertion has no 'jti' claim.")
        }
        let fingerprint = Array(SHA256.hash(data: signingInput + Array(".".utf8) + signature))
        guard noteUse(jti, fingerprint, Date(timeIntervalSince1970: exp)) else {
            throw .invalidClient(
                code: 50027, "Invalid JWT token. Another client assertion already used the 'jti' '\(jti)': each assertion needs its own identifier.")
        }
    }

    /// The registered certificate the header's `x5t#S256` (preferred) or `x5t` names.
    private func registeredCertificate(of client: Fixtures.ClientApp) throws(OAuthError) -> ClientCertificate {
        let named: (String, [UInt8])? = if let value = header["x5t#S256"]?.stringValue, let bytes = Base64URL.decode(value) {
            ("x5t#S256", bytes)
        } else if let value = header["x5t"]?.stringValue, let bytes = Base64URL.decode(value) {
            ("x5t", bytes)
        } else { nil }
        guard let (member, thumbprint) = named else {
            throw .invalidClient(
                code: 700027, "Client assertion failed signature validation: its header names no certificate (neither 'x5t#S256' nor 'x5t').")
        }
        let found = client.certificates.first { (member == "x5t" ? $0.sha1 : $0.sha256) == thumbprint }
        guard let found else {
            throw .invalidClient(
                code: 700027,
                "The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Thumbprint of key used by client: '\(thumbprint.map { String(format: "%02X", $0) }.joined())' (\(member)); app Id '\(client.clientId)']")
        }
        return found
    }
}
