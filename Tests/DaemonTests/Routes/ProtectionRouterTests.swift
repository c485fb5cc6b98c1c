import Foundation
import JSON
import Testing

/// `ProtectionRoutes` at the router: protected buffers and the data-protection answers.
@Suite struct ProtectionRouterTests {
    @Test func aBufferForNoIdentityRoundTrips() async throws {
        try await RouterSupport.withRouter { client, _ in
            let data = Data("notes".utf8).base64EncodedString()
            let protected = try await client.control(.post, "/v1/protect", ["identity": .null, "data": .string(data)])
            #expect(protected.status == .ok && protected.json["owner"] == .null && protected.json["encrypted"] == false)
            let back = try await client.control(.post, "/v1/unprotect", ["data": protected.json["data"] ?? .null])
            #expect(back.status == .ok && back.json["data"] == .string(data) && back.json["protected"] == true)
            let info = try await client.control(.post, "/v1/protection-info", ["data": .string(data)])
            #expect(info.status == .ok && info.json["protected"] == false)
            let plain = try await client.control(.post, "/v1/unprotect", ["data": .string(data)])
            #expect(plain.status == .ok && plain.json["data"] == .string(data) && plain.json["protected"] == false)
            let answers = try await client.control(.get, "/v1/data-protection?scheme=https")
            #expect(answers.status == .ok && answers.json.objectValue?.isEmpty == false)
        }
    }

    @Test func badInputIsA400NamingWhatWasWrong() async throws {
        try await RouterSupport.withRouter { client, _ in
            let base64 = try await client.control(.post, "/v1/protect", ["data": "not base64!"])
            #expect(base64.isError(.badRequest, "bad_request") && base64.message.contains("'data' must be base64"))
            let missing = try await client.control(.post, "/v1/unprotect", [:])
            #expect(missing.isError(.badRequest, "bad_request") && missing.message.contains("'data' is required"))
            let query = try await client.control(.get, "/v1/data-protection?owner=a&colour=blue")
            #expect(query.isError(.badRequest, "bad_request") && query.message.contains("'colour'"))
            let scheme = try await client.control(.get, "/v1/accounts/alice@contoso.com/data-protection?scheme=1http")
            #expect(scheme.isError(.badRequest, "bad_request") && scheme.message.contains("GET /v1/accounts/{upn}/data-protection: 'scheme'"))
            let flag = try await client.control(.get, "/v1/data-protection?knownManagedAppScheme=yes")
            #expect(flag.isError(.badRequest, "bad_request") && flag.message.contains("true or false"))
        }
    }

    @Test func theEnginesRefusalsCarryTheirCodeAndStatus() async throws {
        try await RouterSupport.withRouter { client, _ in
            let identity = try await client.control(.post, "/v1/protect", ["identity": "alice at contoso", "data": "AA=="])
            #expect(identity.isError(.badRequest, "invalid_account"))
        }
    }
}
