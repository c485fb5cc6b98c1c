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

/// The claims of an id_token whose signature the Orchestrator checked, and whether they hold
/// (OpenID Connect Core 1.0 §3.1.3.7): `iss` equal to the issuer, `aud` holding the client id
/// (and `azp` the client id when there are several audiences), `exp` in the future and `nbf`
/// in the past with a bounded skew at the given ``Times``, and `nonce` equal to the one sent
/// with the authorization request. Pure: the times are inputs.
public struct IDTokenClaims: Sendable {
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

        public init(issuer: String, clientID: String, nonce: String?, entra: Bool, skewSeconds: Int64 = IDTokenClaims.defaultSkewSeconds) {
            self.issuer = issuer
            self.clientID = clientID
            self.nonce = nonce
            self.entra = entra
            self.skewSeconds = skewSeconds
        }
    }

    /// The times `exp` and `nbf` are checked at, in seconds since 1970.
    public struct Times: Sendable, Hashable {
        /// The wall clock: the issuer's timestamps are real ones.
        public var wall: Int64
        /// The engine's virtual time, when its clock is virtual. A mock issuer's clock may be
        /// moved with it (a flow's `advanceClock` moves mockauth's too), so a token valid at
        /// either time is valid.
        public var virtual: Int64?

        public init(wall: Int64, virtual: Int64? = nil) {
            self.wall = wall
            self.virtual = virtual
        }
    }

    /// Five minutes, MSAL's and most libraries' default.
    public static let defaultSkewSeconds: Int64 = 300

    /// The token's payload object.
    public let claims: JSONValue

    public init(_ claims: JSONValue) {
        self.claims = claims
    }

    /// Checks the claims against `expected` at `times` and returns who signed in.
    public func validate(_ expected: Expectations, at times: Times) throws(IDTokenError) -> TokenIdentity {
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
        do {
            try checkLifetime(expected, now: times.wall)
        } catch {
            guard let virtual = times.virtual, virtual != times.wall else { throw error }
            try checkLifetime(expected, now: virtual)
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

    /// `exp` after `now` and `nbf` before it, within the skew.
    private func checkLifetime(_ expected: Expectations, now: Int64) throws(IDTokenError) {
        guard let expires = try time("exp") else { throw IDTokenError("the id_token has no 'exp' claim") }
        guard now < expires + expected.skewSeconds else { throw IDTokenError("the id_token expired at \(expires) (now \(now), skew \(expected.skewSeconds) s)") }
        if let notBefore = try time("nbf"), notBefore > now + expected.skewSeconds {
            throw IDTokenError("the id_token is not valid before \(notBefore) (now \(now), skew \(expected.skewSeconds) s)")
        }
    }

    private func string(_ name: String) throws(IDTokenError) -> String {
        guard let value = claims[name]?.stringValue, !value.isEmpty else { throw IDTokenError("the id_token has no '\(name)' claim") }
        return value
    }

    private func time(_ name: String) throws(IDTokenError) -> Int64? {
        guard let value = claims[name], value != .null else { return nil }
        guard let seconds = value.intValue ?? value.doubleValue.map({ Int64($0) }) else { throw IDTokenError("the id_token's '\(name)' is not a number") }
        return seconds
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
