import Crypto
import _CryptoExtras
import Foundation
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

@Suite("Discovery: openid-configuration, keys, instance discovery")
struct DiscoveryTests {
    @Test("every tenant alias serves the configuration", arguments: [
        "contoso.com", "CONTOSO.COM", "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d", "organizations", "common",
    ])
    func aliases(segment: String) async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.sendJSON("/\(segment)/v2.0/.well-known/openid-configuration", method: .get)
            #expect(status == .ok)
            let multi = ["organizations", "common"].contains(segment)
            let pathTenant = multi ? segment : TestSupport.tenantId
            #expect(body["token_endpoint"] == .string("http://localhost/\(pathTenant)/oauth2/v2.0/token"))
            #expect(body["authorization_endpoint"] == .string("http://localhost/\(pathTenant)/oauth2/v2.0/authorize"))
            #expect(body["issuer"] == .string(multi ? "http://localhost/{tenantid}/v2.0" : "http://localhost/\(TestSupport.tenantId)/v2.0"))
        }
    }

    @Test("an unknown tenant gets AADSTS90002")
    func unknownTenant() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, body) = try await client.sendJSON("/fabrikam.com/v2.0/.well-known/openid-configuration", method: .get)
            #expect(status == .badRequest)
            #expect(body["error"] == "invalid_request")
            #expect(body["error_codes"] == [90002])
        }
    }

    @Test("the JWKS verifies issued tokens")
    func keys() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, jwks) = try await client.sendJSON("/contoso.com/discovery/v2.0/keys", method: .get)
            // The signing key is found by kid, never by position: keys[0] is the next key.
            let keys = try #require(jwks["keys"]?.arrayValue)
            #expect(keys.count == 2 && keys[0]["kid"] != .string(TestSupport.key.kid))
            let key = try #require(keys.first { $0["kid"] == .string(TestSupport.key.kid) })
            #expect(key["kty"] == "RSA")
            #expect(key["e"] == "AQAB")
            let (_, body) = try await client.passwordToken("bob@contoso.com")
            let token = try #require(body["access_token"]?.stringValue)
            let parts = token.split(separator: ".")
            let header = try #require(Base64URL.decode(parts[0]))
            #expect(try JSONValue.parse(header) == ["typ": "JWT", "alg": "RS256", "kid": try #require(key["kid"])])
            // Verify with a public key rebuilt from the published n and e only.
            let n = try #require(key["n"]?.stringValue.flatMap(Base64URL.decode))
            let e = try #require(key["e"]?.stringValue.flatMap(Base64URL.decode))
            let publicKey = try _RSA.Signing.PublicKey(n: n, e: e)
            let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            let signed = Array((parts[0] + "." + parts[1]).utf8)
            #expect(publicKey.isValidSignature(signature, for: SHA256.hash(data: signed), padding: .insecurePKCS1v1_5))
            let tampered = Array((parts[0] + "." + parts[1] + "x").utf8)
            #expect(!publicKey.isValidSignature(signature, for: SHA256.hash(data: tampered), padding: .insecurePKCS1v1_5))
        }
    }

    @Test("instance discovery answers MSAL's question; foreign hosts are invalid_instance")
    func instanceDiscovery() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let endpoint = FormParameters.escape("http://localhost/contoso.com/oauth2/v2.0/authorize")
            let (status, body) = try await client.sendJSON(
                "/common/discovery/instance?api-version=1.1&authorization_endpoint=\(endpoint)", method: .get)
            #expect(status == .ok)
            #expect(body["tenant_discovery_endpoint"] == "http://localhost/contoso.com/v2.0/.well-known/openid-configuration")
            #expect(body["metadata"]?[0]?["aliases"]?.arrayValue?.contains("localhost") == true)
            let foreign = FormParameters.escape("https://login.microsoftonline.com/common/oauth2/v2.0/authorize")
            let (badStatus, bad) = try await client.sendJSON(
                "/common/discovery/instance?authorization_endpoint=\(foreign)", method: .get)
            #expect(badStatus == .badRequest)
            #expect(bad["error"] == "invalid_instance")
        }
    }

    @Test("user realm discovery: the tenant's domain is Managed, others Unknown")
    func userRealm() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, managed) = try await client.sendJSON("/common/userrealm/Bob@Contoso.com?api-version=1.0", method: .get)
            #expect(status == .ok)
            #expect(managed["account_type"] == "Managed")
            #expect(managed["domain_name"] == "contoso.com")
            let (_, other) = try await client.sendJSON("/common/userrealm/x@fabrikam.com", method: .get)
            #expect(other["account_type"] == "Unknown")
        }
    }
}
