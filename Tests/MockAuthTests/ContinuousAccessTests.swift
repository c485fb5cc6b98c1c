import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 11 (the mock's part): CAE at the mock's resources for `cp1` tokens.
@Suite("Continuous access evaluation at the resources")
struct ContinuousAccessTests {
    static let cp1 = #"{"access_token":{"xms_cc":{"values":["cp1","protapp"]}}}"#

    static func userinfo(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.execute(uri: "/contoso.com/openid/userinfo", method: .get, headers: [.authorization: "Bearer \(token)"])
    }

    /// The `nbf` value a challenge's base64 `claims` demands.
    static func demandedNotBefore(_ header: String?) throws -> String? {
        let header = try #require(header)
        #expect(header.hasPrefix("Bearer error=\"insufficient_claims\""), "\(header)")
        let encoded = try #require(header.firstMatch(of: /claims="([^"]+)"/)?.output.1)
        let json = try JSONValue.parse(Array(try #require(Data(base64Encoded: String(encoded)))))
        #expect(json["access_token"]?["nbf"]?["essential"] == true)
        return json["access_token"]?["nbf"]?["value"]?.stringValue
    }

    @Test("after a revocation a cp1 token gets 401 insufficient_claims at userinfo and the MAM service; a token without cp1 lives on")
    func revoked() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, capable) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: Self.cp1)
            let (_, plain) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: TestSupport.protapp)
            let cae = try #require(capable["access_token"]?.stringValue), old = try #require(plain["access_token"]?.stringValue)
            #expect(try await Self.userinfo(client, cae).status == .ok)
            state.advanceClock(seconds: 5)
            #expect(try await client.sendJSON("/_admin/users/bob@contoso.com/revoke-refresh-tokens").0 == .ok)

            let refused = try await Self.userinfo(client, cae)
            #expect(refused.status == .unauthorized)
            let value = try Self.demandedNotBefore(refused.headers[.wwwAuthenticate])
            #expect(value == String(Int64(try #require(state.sessionsRevokedAt(upn: "bob@contoso.com")).timeIntervalSince1970)))
            let mam = try await client.execute(
                uri: "/mam/v1/enroll", method: .post, headers: [.authorization: "Bearer \(cae)", .contentType: "application/json"])
            #expect(mam.status == .unauthorized)
            _ = try Self.demandedNotBefore(mam.headers[.wwwAuthenticate])
            #expect(try JSONValue.parse(Array(mam.body.readableBytesView))["error"] == "insufficient_claims")

            #expect(try await Self.userinfo(client, old).status == .ok, "no cp1: the token lives until it expires")
            #expect(try await client.sendJSON("/mam/v1/enroll", [:], bearer: old).0 == .ok)

            state.advanceClock(seconds: 2)
            let (_, fresh) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: Self.cp1)
            #expect(try await Self.userinfo(client, try #require(fresh["access_token"]?.stringValue)).status == .ok, "a token issued after it passes")
        }
    }

    @Test("a token issued at once after a revocation passes: the clock moves past the revocation's second")
    func sameSecond() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, before) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: Self.cp1)
            let old = try #require(before["access_token"]?.stringValue)
            #expect(try await client.sendJSON("/_admin/users/bob@contoso.com/revoke-refresh-tokens").0 == .ok)
            let revokedAt = try #require(state.sessionsRevokedAt(upn: "bob@contoso.com"))
            #expect(state.now().timeIntervalSince1970 >= revokedAt.timeIntervalSince1970.rounded(.down) + 1, "the clock is past the revocation's second")
            #expect(try await Self.userinfo(client, old).status == .unauthorized, "a token of the revocation's second is refused")
            let (_, after) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: Self.cp1)
            let fresh = try #require(after["access_token"]?.stringValue)
            #expect(try await Self.userinfo(client, fresh).status == .ok, "a token asked for right after the revocation passes")
            #expect(try await client.sendJSON("/mam/v1/enroll", [:], bearer: fresh).0 == .ok)
        }
    }

    @Test("a disabled user's cp1 token gets insufficient_claims")
    func disabled() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, capable) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope, claims: Self.cp1)
            let token = try #require(capable["access_token"]?.stringValue)
            state.updateUser(upn: "bob@contoso.com") { $0.accountEnabled = false }
            let refused = try await Self.userinfo(client, token)
            #expect(refused.status == .unauthorized)
            _ = try Self.demandedNotBefore(refused.headers[.wwwAuthenticate])
        }
    }
}
