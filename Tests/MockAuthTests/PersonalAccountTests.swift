import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 4: personal Microsoft accounts at `/consumers` and `/common`.
@Suite("Personal Microsoft accounts")
struct PersonalAccountTests {
    static let msaTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

    static func password(_ client: any TestClientProtocol, tenant: String, _ upn: String) async throws -> (HTTPResponse.Status, JSONValue) {
        try await client.postForm("/\(tenant)/oauth2/v2.0/token", [
            ("grant_type", "password"), ("client_id", "chatr"), ("username", upn), ("password", "Passw0rd!"),
            ("scope", "openid profile \(TestSupport.mamScope)"), ("client_info", "1"),
        ])
    }

    @Test("pat@outlook.com signs in at /consumers and /common with the MSA tenant's tid, never at the tenant")
    func segments() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for tenant in ["consumers", "common", Self.msaTenant] {
                let (status, body) = try await Self.password(client, tenant: tenant, "pat@outlook.com")
                #expect(status == .ok, "\(tenant): \(body)")
                let claims = try #require(body.jwtClaims("access_token"))
                #expect(claims["tid"] == .string(Self.msaTenant))
                #expect(claims["upn"] == nil, "personal accounts have no UPN")
                #expect(claims["iss"]?.stringValue?.hasSuffix("/\(Self.msaTenant)/v2.0") == true)
                #expect(body.jwtClaims("id_token")?["tid"] == .string(Self.msaTenant))
            }
            for tenant in ["contoso.com", "organizations"] {
                let (status, body) = try await Self.password(client, tenant: tenant, "pat@outlook.com")
                #expect(status == .badRequest, "\(tenant)")
                #expect(body["error_codes"] == [50034])
            }
            let (workStatus, work) = try await Self.password(client, tenant: "consumers", "bob@contoso.com")
            #expect(workStatus == .badRequest)
            #expect(work["error_codes"] == [50034])
            let discovery = try await client.execute(uri: "/consumers/v2.0/.well-known/openid-configuration", method: .get)
            let document = try JSONValue.parse(Array(discovery.body.readableBytesView))
            #expect(document["issuer"]?.stringValue?.hasSuffix("/\(Self.msaTenant)/v2.0") == true)
            #expect(document["token_endpoint"]?.stringValue?.hasSuffix("/consumers/oauth2/v2.0/token") == true)
        }
    }

    @Test("the MAM service answers a personal account as an unlicensed user (200)")
    func mam() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, body) = try await Self.password(client, tenant: "consumers", "pat@outlook.com")
            let token = try #require(body["access_token"]?.stringValue)
            let (status, enroll) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: token)
            #expect(status == .ok)
            #expect(enroll["status"] == 200)
            #expect(enroll["statusName"] == "AccountNotLicensed")
        }
    }
}
