import ComplianceCore
import JSON

/// Why an id_token was refused. The message names the claim or the check; it never quotes
/// the token.
public struct IDTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// The token's header names a key (`kid`) the key set does not hold: the caller fetches
    /// the issuer's keys again (once) and retries.
    public var unknownKeyID: String?

    public init(_ message: String, unknownKeyID: String? = nil) {
        self.message = message
        self.unknownKeyID = unknownKeyID
    }

    public var description: String { message }
}

/// An OpenID Connect id_token (a compact JWS), parsed but not yet trusted.
///
/// Validation follows OpenID Connect Core 1.0 §3.1.3.7: the signature with the issuer's key
/// (RS256, PS256 or ES256 only: `none` and HMAC are refused), `iss` equal to the issuer,
/// `aud` holding the client id (and `azp` the client id when there are several audiences),
/// `exp` in the future and `nbf` in the past with a bounded skew, and `nonce` equal to the
/// one sent with the authorization request.
public struct IDToken: Sendable {
    /// What the id_token must say.
    public struct Expectations: Sendable {
        /// The issuer the discovery document names. An Entra multi-tenant document's
        /// `{tenantid}` placeholder stands for the token's own `tid`.
        public var issuer: String
        public var clientID: String
        /// The authorization request's nonce; nil for grants without one (refresh).
        public var nonce: String?
        /// Entra identifies people by (`oid`, `tid`); other issuers by (`iss`, `sub`).
        public var entra: Bool
        /// The clock skew tolerated on `exp` and `nbf`, in seconds.
        public var skewSeconds: Int64

        public init(issuer: String, clientID: String, nonce: String?, entra: Bool, skewSeconds: Int64 = IDToken.defaultSkewSeconds) {
            self.issuer = issuer
            self.clientID = clientID
            self.nonce = nonce
            self.entra = entra
            self.skewSeconds = skewSeconds
        }
    }

    /// Five minutes, MSAL's and most libraries' default.
    public static let defaultSkewSeconds: Int64 = 300

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

    /// Checks the claims against `expected` at `now` (seconds since 1970) and returns who
    /// signed in.
    public func validate(_ expected: Expectations, now: Int64) throws(IDTokenError) -> TokenIdentity {
        func string(_ name: String) throws(IDTokenError) -> String {
            guard let value = claims[name]?.stringValue, !value.isEmpty else { throw IDTokenError("the id_token has no '\(name)' claim") }
            return value
        }
        func time(_ name: String) throws(IDTokenError) -> Int64? {
            guard let value = claims[name], value != .null else { return nil }
            guard let seconds = value.intValue ?? value.doubleValue.map({ Int64($0) }) else { throw IDTokenError("the id_token's '\(name)' is not a number") }
            return seconds
        }
        let issuer = try string("iss")
        var expectedIssuer = expected.issuer
        if expectedIssuer.contains("{tenantid}"), let tid = claims["tid"]?.stringValue {
            expectedIssuer = expectedIssuer.replacingAll("{tenantid}", with: tid)
        }
        guard issuer == expectedIssuer else { throw IDTokenError("the id_token was issued by '\(issuer)', not by '\(expectedIssuer)'") }
        let audiences: [String]
        if let single = claims["aud"]?.stringValue {
            audiences = [single]
        } else if let list = claims["aud"]?.arrayValue {
            audiences = list.compactMap(\.stringValue)
        } else {
            throw IDTokenError("the id_token has no 'aud' claim")
        }
        guard audiences.contains(expected.clientID) else {
            throw IDTokenError("the id_token is for '\(audiences.joined(separator: " "))', not for this app ('\(expected.clientID)')")
        }
        if audiences.count > 1, claims["azp"]?.stringValue != expected.clientID {
            throw IDTokenError("the id_token has several audiences and its 'azp' is not this app ('\(expected.clientID)')")
        }
        guard let expires = try time("exp") else { throw IDTokenError("the id_token has no 'exp' claim") }
        guard now < expires + expected.skewSeconds else { throw IDTokenError("the id_token expired at \(expires) (now \(now), skew \(expected.skewSeconds) s)") }
        if let notBefore = try time("nbf"), notBefore > now + expected.skewSeconds {
            throw IDTokenError("the id_token is not valid before \(notBefore) (now \(now), skew \(expected.skewSeconds) s)")
        }
        if let nonce = expected.nonce {
            guard claims["nonce"]?.stringValue == nonce else { throw IDTokenError("the id_token's 'nonce' is not the one this sign-in sent") }
        }
        let subject = try string("sub")
        let username = ["preferred_username", "upn", "email"].lazy.compactMap { self.claims[$0]?.stringValue }.first { !$0.isEmpty }
        if expected.entra, let oid = claims["oid"]?.stringValue, let tid = claims["tid"]?.stringValue, let home = HomeAccountID(objectID: oid, tenantID: tid) {
            return TokenIdentity(subject: home.description, username: username)
        }
        return TokenIdentity(subject: "\(subject) at \(issuer)", username: username)
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
