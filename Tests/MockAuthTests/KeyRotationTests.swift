import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing
import X509
import _CryptoExtras

@testable import MockAuth

/// Issue 41 point 1: signing keys as Entra publishes them, and rotation.
@Suite("Signing keys and rotation")
struct KeyRotationTests {
    static func jwks(_ client: any TestClientProtocol) async throws -> [JSONValue] {
        try #require(try await client.sendJSON("/contoso.com/discovery/v2.0/keys", method: .get).1["keys"]?.arrayValue)
    }

    static func kid(of token: String?) -> String? {
        token?.split(separator: ".").first.flatMap { Base64URL.decode($0) }.flatMap { try? JSONValue.parse($0) }?["kid"]?.stringValue
    }

    @Test("every key has x5c (a certificate of that key) and x5t (its SHA-1)")
    func x5c() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for key in try await Self.jwks(client) {
                let der = try #require(key["x5c"]?[0]?.stringValue.flatMap { Data(base64Encoded: $0) })
                let certificate = try Certificate(derEncoded: Array(der))
                let rsa = try #require(_RSA.Signing.PublicKey(certificate.publicKey))
                let primitives = try rsa.getKeyPrimitives()
                #expect(Base64URL.encode(primitives.modulus.drop { $0 == 0 }) == key["n"]?.stringValue)
                #expect(key["x5t"] == .string(Base64URL.encode(Insecure.SHA1.hash(data: der))))
            }
        }
    }

    @Test("rotation: the next key signs, the old one stays published for retainSeconds, then is dropped")
    func rotation() async throws {
        try await TestSupport.withRouterApp { client, state in
            let before = try await Self.jwks(client).compactMap { $0["kid"]?.stringValue }
            let (_, oldTokens) = try await client.passwordToken("alice@contoso.com", scope: TestSupport.mamScope)
            #expect(Self.kid(of: oldTokens["access_token"]?.stringValue) == before[1])
            let (status, rotated) = try await client.sendJSON("/_admin/keys/rotate", ["retainSeconds": 600])
            #expect(status == .ok && rotated["kid"] == .string(before[0]) && rotated["previousKid"] == .string(before[1]))
            let after = try await Self.jwks(client).compactMap { $0["kid"]?.stringValue }
            #expect(after.count == 3 && after[1] == before[0] && after[2] == before[1] && !before.contains(after[0]))
            let (_, newTokens) = try await client.passwordToken("bob@contoso.com")
            #expect(Self.kid(of: newTokens["access_token"]?.stringValue) == before[0])
            // A token signed with the old key still works at the MAM service while it is published...
            let mam = try #require(oldTokens["access_token"]?.stringValue)
            #expect(try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: mam).0 == .ok)
            state.advanceClock(seconds: 601)
            // ...and the old key is gone after retainSeconds.
            let dropped = try await Self.jwks(client).compactMap { $0["kid"]?.stringValue }
            #expect(dropped.count == 2 && !dropped.contains(before[1]))
            #expect(try await client.sendJSON("/_admin/keys/rotate", ["retainSeconds": -1]).0 == .badRequest)
        }
    }
}
