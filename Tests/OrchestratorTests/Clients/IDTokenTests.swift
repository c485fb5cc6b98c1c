import ComplianceCore
import Crypto
import Foundation
import HTTPClient
import JSON
import LocalServers
import Logging
import Orchestrator
import Testing
import _CryptoExtras

/// id_token validation: signatures (RS256, PS256, ES256; never `none` or HMAC), each claim
/// check, the identity it yields, and the issuer's key set fetched once, cached, and fetched
/// again once for an unknown key.
@Suite struct IDTokenTests {
    static let issuer = "https://id.example/realms/test"
    static let now: Int64 = 1_800_000_000

    /// A signer with its public JWK.
    struct Signer {
        let algorithm: String
        let kid: String
        let jwk: JSONValue
        let sign: @Sendable ([UInt8]) throws -> [UInt8]

        static func rsa(_ algorithm: String, kid: String) throws -> Signer {
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let parts = try key.publicKey.getKeyPrimitives()
            let jwk: JSONValue = [
                "kty": "RSA", "use": "sig", "kid": .string(kid), "n": .string(Base64URL.encode(Array(parts.modulus))),
                "e": .string(Base64URL.encode(Array(parts.publicExponent))),
            ]
            let padding: _RSA.Signing.Padding = algorithm == "PS256" ? .PSS : .insecurePKCS1v1_5
            return Signer(algorithm: algorithm, kid: kid, jwk: jwk) { input in
                Array(try key.signature(for: input, padding: padding).rawRepresentation)
            }
        }

        static func es256(kid: String) -> Signer {
            let key = P256.Signing.PrivateKey()
            let point = Array(key.publicKey.x963Representation)  // 04 || x || y
            let jwk: JSONValue = [
                "kty": "EC", "crv": "P-256", "kid": .string(kid), "x": .string(Base64URL.encode(Array(point[1...32]))),
                "y": .string(Base64URL.encode(Array(point[33...64]))),
            ]
            return Signer(algorithm: "ES256", kid: kid, jwk: jwk) { input in Array(try key.signature(for: input).rawRepresentation) }
        }

        func token(_ claims: JSONValue, header: JSONValue? = nil) throws -> String {
            let head = header ?? ["alg": .string(algorithm), "kid": .string(kid), "typ": "JWT"]
            let input = Base64URL.encode(head.encoded()) + "." + Base64URL.encode(claims.encoded())
            return input + "." + Base64URL.encode(try sign(Array(input.utf8)))
        }
    }

    static func claims(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        var object: JSONObject = [
            "iss": .string(issuer), "aud": "chatr", "sub": "s-123", "exp": .int(now + 3600), "nbf": .int(now - 10), "iat": .int(now - 10),
            "nonce": "n-1", "preferred_username": "bob@contoso.com",
        ]
        for (name, value) in changes { object[name] = value }  // nil removes the claim
        return .object(object)
    }

    static let expected = IDTokenClaims.Expectations(issuer: issuer, clientID: "chatr", nonce: "n-1", entra: false)

    func check(_ token: String, _ keys: JSONWebKeySet, _ expected: IDTokenClaims.Expectations = Self.expected) throws(IDTokenError) -> TokenIdentity {
        let parsed = try IDToken(token)
        try parsed.verifySignature(with: keys)
        return try parsed.validate(expected, at: .init(wall: Self.now))
    }

    @Test(arguments: ["RS256", "PS256", "ES256"])
    func aTokenSignedWithTheIssuersKeyYieldsWhoSignedIn(algorithm: String) throws {
        let signer = algorithm == "ES256" ? Signer.es256(kid: "k1") : try Signer.rsa(algorithm, kid: "k1")
        let keys = try JSONWebKeySet(json: ["keys": [signer.jwk]])
        let identity = try check(try signer.token(Self.claims()), keys)
        #expect(identity == TokenIdentity(subject: "s-123 at \(Self.issuer)", username: "bob@contoso.com"))

        // One byte of the claims changed: the signature no longer holds.
        let token = try signer.token(Self.claims())
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Self.claims(["sub": "s-999"]).encoded())
        #expect(throws: IDTokenError.self) { try check(parts.joined(separator: "."), keys) }
    }

    @Test func aKeyOfAnotherAlgorithmOrTypeDoesNotVerify() throws {
        let rsa = try Signer.rsa("RS256", kid: "k1")
        // The same RSA key announced for PS256 only: an RS256 signature is refused.
        var announced = rsa.jwk.objectValue!
        announced["alg"] = "PS256"
        let keys = try JSONWebKeySet(json: ["keys": [.object(announced)]])
        let error = #expect(throws: IDTokenError.self) { try check(try rsa.token(Self.claims()), keys) }
        #expect(error?.message.contains("signature does not verify") == true, "\(String(describing: error))")
        // An ES256 header over an RSA key.
        let es = Signer.es256(kid: "k1")
        let mixed = try es.token(Self.claims())
        #expect(throws: IDTokenError.self) { try check(mixed, try JSONWebKeySet(json: ["keys": [rsa.jwk]])) }
    }

    @Test(arguments: ["none", "HS256", "RS512"])
    func unacceptedAlgorithmsAreRefusedBeforeAnyKeyIsTried(algorithm: String) throws {
        let signer = try Signer.rsa("RS256", kid: "k1")
        let token = try signer.token(Self.claims(), header: ["alg": .string(algorithm), "kid": "k1"])
        let error = #expect(throws: IDTokenError.self) { try IDToken(token) }
        #expect(error?.message.contains("signed with '\(algorithm)'") == true)
    }

    @Test func eachClaimIsChecked() throws {
        let signer = try Signer.rsa("RS256", kid: "k1")
        let keys = try JSONWebKeySet(json: ["keys": [signer.jwk]])
        let cases: [([String: JSONValue?], String)] = [
            (["iss": "https://evil.example/realms/test"], "issued by 'https://evil.example/realms/test'"),
            (["iss": nil], "no 'iss' claim"),
            (["aud": "another-app"], "is for 'another-app', not for this app"),
            (["aud": ["chatr", "another-app"]], "several audiences and its 'azp'"),
            (["aud": nil], "no 'aud' claim"),
            (["exp": .int(Self.now - 301)], "expired at"),
            (["exp": nil], "no 'exp' claim"),
            (["exp": "tomorrow"], "'exp' is not a number"),
            (["nbf": .int(Self.now + 301)], "not valid before"),
            (["nonce": "n-2"], "'nonce' is not the one this sign-in sent"),
            (["nonce": nil], "'nonce' is not the one this sign-in sent"),
            (["sub": nil], "no 'sub' claim"),
        ]
        for (changes, message) in cases {
            let error = #expect(throws: IDTokenError.self, "\(changes)") { try check(try signer.token(Self.claims(changes)), keys) }
            #expect(error?.message.contains(message) == true, "\(changes): \(String(describing: error))")
        }
        // Within the skew, and the cases that are fine.
        let fine: [[String: JSONValue?]] = [
            ["exp": .int(Self.now - 299)], ["nbf": .int(Self.now + 299)], ["nbf": nil], ["aud": ["chatr", "api"], "azp": "chatr"], ["aud": ["chatr"]],
        ]
        for changes in fine { _ = try check(try signer.token(Self.claims(changes)), keys) }
        // A refresh sends no nonce: none is asked for.
        var refresh = Self.expected
        refresh.nonce = nil
        _ = try check(try signer.token(Self.claims(["nonce": nil])), keys, refresh)
    }

    @Test func entraIdentifiesByObjectAndTenantAndMultiTenantIssuersNameTheTokensTenant() throws {
        let signer = try Signer.rsa("RS256", kid: "k1")
        let keys = try JSONWebKeySet(json: ["keys": [signer.jwk]])
        let tid = "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"
        let claims = Self.claims(["iss": .string("https://login.example/\(tid)/v2.0"), "oid": "o-1", "tid": .string(tid)])
        let common = IDTokenClaims.Expectations(issuer: "https://login.example/{tenantid}/v2.0", clientID: "chatr", nonce: "n-1", entra: true)
        #expect(try check(try signer.token(claims), keys, common) == TokenIdentity(subject: "o-1.\(tid)", username: "bob@contoso.com"))
        let other = Self.claims(["iss": "https://login.example/another-tenant/v2.0", "oid": "o-1", "tid": .string(tid)])
        #expect(throws: IDTokenError.self) { try check(try signer.token(other), keys, common) }
    }

    @Test func theKeySetKeepsSigningKeysOnlyAndNamesWhatIsWrong() throws {
        let rsa = try Signer.rsa("RS256", kid: "sig")
        var encryption = try Signer.rsa("RS256", kid: "enc").jwk.objectValue!
        encryption["use"] = "enc"
        let keys = try JSONWebKeySet(json: ["keys": [rsa.jwk, .object(encryption), ["kty": "oct", "k": "c2VjcmV0"], ["kty": "EC", "crv": "P-384", "x": "", "y": ""]]])
        #expect(keys.keys.map(\.id) == ["sig"])
        #expect(keys.key(id: nil)?.id == "sig", "the only key serves a header without kid")
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: ["keys": [["kty": "oct", "k": "c2VjcmV0"]]]) }
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: ["keys": [["kty": "RSA", "kid": "x", "n": "!!", "e": "AQAB"]]]) }
        #expect(throws: IDTokenError.self) { try JSONWebKeySet(json: ["no": "keys"]) }
        let unknown = #expect(throws: IDTokenError.self) { try IDToken(try Signer.rsa("RS256", kid: "rotated").token(Self.claims())).verifySignature(with: keys) }
        #expect(unknown?.unknownKeyID == "rotated")
    }

    @Test func mockauthsTokensValidateAndTheKeysAreFetchedOnceAndAgainOnceForAnUnknownKey() async throws {
        try await InProcessMockAuth.run { mock in
            let tenant = "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"
            let client = IssuerClient(
                configuration: IssuerConfiguration(authority: .entra(mock.authority), clientID: "chatr", redirectURI: "http://localhost"),
                http: HTTPClient(), logger: Logger(label: "test"))
            func idToken() async throws -> String {
                let reply = try await client.requestToken(.password(username: "bob@contoso.com", password: "Passw0rd!"), scopes: ["openid", "profile"], claims: nil)
                return try #require(try JSONValue.parse(reply.body)["id_token"]?.stringValue)
            }
            let now = Int64(Date().timeIntervalSince1970)
            let identity = try await client.validate(idToken: try await idToken(), nonce: nil, at: .init(wall: now))
            #expect(identity.username == "bob@contoso.com")
            #expect(identity.subject.hasSuffix(".\(tenant)"), "Entra: oid.tid, got \(identity.subject)")
            _ = try await client.validate(idToken: try await idToken(), nonce: nil, at: .init(wall: now))
            func keyFetches() -> Int { mock.state.requestLogEntries().filter { $0.route == "keys" }.count }
            #expect(keyFetches() == 1, "cached after the first")

            // A token under a key the issuer does not publish: fetched again once, then refused.
            let forged = try Signer.rsa("RS256", kid: "rotated").token(Self.claims(["iss": .string("\(mock.url)/\(tenant)/v2.0")]))
            let error = await #expect(throws: IssuerError.self) { _ = try await client.validate(idToken: forged, nonce: nil, at: .init(wall: now)) }
            #expect(error?.code == .invalidIDToken && error?.message.contains("key 'rotated'") == true, "\(String(describing: error))")
            #expect(keyFetches() == 2)
            // A nonce the token does not carry; an hour past its (one-hour) lifetime.
            let late = await #expect(throws: IssuerError.self) { _ = try await client.validate(idToken: try await idToken(), nonce: "n-1", at: .init(wall: now)) }
            #expect(late?.message.contains("nonce") == true)
            let expired = await #expect(throws: IssuerError.self) { _ = try await client.validate(idToken: try await idToken(), nonce: nil, at: .init(wall: now + 7200)) }
            #expect(expired?.message.contains("expired") == true)
        }
    }
}
