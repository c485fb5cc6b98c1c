import Foundation
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

@Suite("Admin API: assignments, faults, request log, reset")
struct AdminTests {
    @Test("untargeting alice lifts CA; targeting bob blocks him; compliance reset blocks alice again")
    func caAssignments() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, alice) = try await client.sendJSON("/_admin/users/alice@contoso.com/ca", ["targeted": false])
            #expect(alice["caTargeted"] == false)
            #expect(try await client.passwordToken("alice@contoso.com").0 == .ok)
            _ = try await client.sendJSON("/_admin/users/bob@contoso.com/ca", ["targeted": true])
            #expect(try await client.passwordToken("bob@contoso.com").1["error_codes"] == [53009])

            _ = try await client.sendJSON("/_admin/users/alice@contoso.com/ca", ["targeted": true])
            state.markCompliant(AccountApp(upn: "alice@contoso.com", appId: "chatr"))
            #expect(try await client.passwordToken("alice@contoso.com").0 == .ok)
            let (_, reset) = try await client.sendJSON("/_admin/users/alice@contoso.com/compliance/reset", [:])
            #expect(reset["wasCompliant"] == true)
            #expect(try await client.passwordToken("alice@contoso.com").0 == .badRequest)

            _ = try await client.sendJSON("/_admin/ca-error-status", method: .put, ["status": 200])
            let (okStatus, okBody) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(okStatus == .ok)
            #expect(okBody["suberror"] == "protection_policy_required")
            let (badCAStatus, _) = try await client.sendJSON("/_admin/ca-error-status", method: .put, ["status": 302])
            #expect(badCAStatus == .badRequest)

            let (missing, _) = try await client.sendJSON("/_admin/users/zed@contoso.com/ca", ["targeted": true])
            #expect(missing == .notFound)
            let (bad, _) = try await client.sendJSON("/_admin/users/bob@contoso.com/ca", ["targeted": "yes"])
            #expect(bad == .badRequest)
            // A field of the wrong kind is refused, not ignored for its default.
            for route in ["wipe", "compliance/reset"] {
                let (wrongKind, error) = try await client.sendJSON("/_admin/users/alice@contoso.com/\(route)", ["appId": 5])
                #expect(wrongKind == .badRequest && error["error_description"] == "'appId' must be a string.", "\(route): \(error)")
            }
            let (tooFar, clockError) = try await client.sendJSON("/_admin/clock/advance", ["seconds": 1e12])
            #expect(tooFar == .badRequest && clockError["error_description"]?.stringValue?.contains("315360000 (10 years)") == true, "\(clockError)")
        }
    }

    @Test("MAM assignment, allowed accounts (array or null) and policy settings")
    func policyAdmin() async throws {
        try await TestSupport.withRouterApp { client, _ in
            _ = try await client.sendJSON("/_admin/users/carol@contoso.com/mam-policy", ["assigned": true])
            let token = try await MAMServiceTests.mamToken(client, "carol@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(enrolled["status"] == 100)
            let (_, anyone) = try await client.sendJSON("/_admin/policy/allowed-accounts", method: .put, ["allowedAccounts": nil])
            #expect(anyone["allowedAccounts"] == .null)
            #expect(anyone["version"] == 2)
            let (_, only) = try await client.sendJSON("/_admin/policy/allowed-accounts", method: .put, ["allowedAccounts": ["bob@contoso.com"]])
            #expect(only["allowedAccounts"] == ["bob@contoso.com"])
            let (unknown, _) = try await client.sendJSON("/_admin/policy", method: .patch, ["colour": "blue"])
            #expect(unknown == .badRequest)
            let (mistyped, _) = try await client.sendJSON("/_admin/policy", method: .patch, ["pinRequired": "yes"])
            #expect(mistyped == .badRequest)
        }
    }

    @Test("an injected 503 with Retry-After hits the next K token requests, then stops")
    func statusFault() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (created, rule) = try await client.sendJSON("/_admin/faults", ["route": "token", "count": 2, "status": 503, "retryAfter": 7])
            #expect(created == .created)
            #expect(rule["remaining"] == 2)
            for _ in 0..<2 {
                let response = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/token", method: .post,
                    body: ByteBuffer(string: "grant_type=password&client_id=chatr&username=bob@contoso.com&password=Passw0rd!&scope=openid"))
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "7")
            }
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok)
            let (_, faults) = try await client.sendJSON("/_admin/faults", method: .get)
            #expect(faults == [])
        }
    }

    @Test("delay and malformed-body faults; unknown routes and actions are refused")
    func otherFaults() async throws {
        try await TestSupport.withRouterApp { client, _ in
            _ = try await client.sendJSON("/_admin/faults", ["route": "mam", "delayMs": 300, "action": "malformed"])
            let start = ContinuousClock.now
            let response = try await client.execute(uri: "/mam/v1/checkin", method: .post)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(response.status == .ok)
            #expect((try? JSONValue.parse(Array(response.body.readableBytesView))) == nil)
            _ = try await client.sendJSON("/_admin/faults", ["route": "token", "action": "empty", "status": 502])
            let empty = try await client.execute(uri: "/contoso.com/oauth2/v2.0/token", method: .post)
            #expect(empty.status == .badGateway)
            #expect(empty.body.readableBytes == 0)
            let (badRoute, _) = try await client.sendJSON("/_admin/faults", ["route": "nowhere", "status": 500])
            #expect(badRoute == .badRequest)
            let (badAction, _) = try await client.sendJSON("/_admin/faults", ["route": "token", "action": "explode"])
            #expect(badAction == .badRequest)
            // Answers HTTP forbids a body: only as `empty`; interim (1xx) answers never.
            for status in [204, 205, 304] {
                let (refused, why) = try await client.sendJSON("/_admin/faults", ["route": "keys", "status": .int(Int64(status))])
                #expect(refused == .badRequest, "\(status)")
                #expect(why["error_description"]?.stringValue?.contains("'empty'") == true, "\(why)")
                let (accepted, _) = try await client.sendJSON("/_admin/faults", ["route": "keys", "status": .int(Int64(status)), "action": "empty"])
                #expect(accepted == .created, "\(status)")
            }
            let (interim, _) = try await client.sendJSON("/_admin/faults", ["route": "keys", "status": 100])
            #expect(interim == .badRequest)
        }
    }

    @Test("the request log names grant and user but never secrets")
    func requestLogRedaction() async throws {
        try await TestSupport.withRouterApp { client, _ in
            _ = try await client.passwordToken("Bob@Contoso.com", password: "Sup3rSecret!")
            let browser = Browser(client: client)
            let code = try await browser.code(login: "bob@contoso.com")
            let (_, tokens) = try await browser.redeem(code)
            let (_, log) = try await client.sendJSON("/_admin/requests", method: .get)
            let text = log.encodedString()
            #expect(!text.contains("Sup3rSecret!"))
            #expect(!text.contains("Passw0rd!"))
            #expect(!text.contains(code))
            #expect(!text.contains(tokens["access_token"]?.stringValue ?? "unreachable"))
            let first = try #require(log[0])
            #expect(first["method"] == "POST")
            #expect(first["path"] == "/contoso.com/oauth2/v2.0/token")
            #expect(first["status"] == 400)
            #expect(first["grantType"] == "password")
            #expect(first["user"] == "bob@contoso.com")
            #expect(log.arrayValue?.contains { $0["grantType"] == "authorization_code" && $0["status"] == 200 } == true)
        }
    }

    @Test("the log leaves out the admin API's own requests only: /_adminx is an unknown path, and logged")
    func requestLogLeavesOutAdminOnly() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (status, _) = try await client.sendJSON("/_adminx/requests", method: .get)
            #expect(status == .notFound)
            _ = try await client.sendJSON("/_admin/requests", method: .get)
            let (_, log) = try await client.sendJSON("/_admin/requests", method: .get)
            let paths = log.arrayValue?.compactMap { $0["path"]?.stringValue }
            #expect(paths == ["/_adminx/requests"])
        }
    }

    @Test("reset returns to the fixtures")
    func reset() async throws {
        try await TestSupport.withRouterApp { client, state in
            _ = try await client.sendJSON("/_admin/users/alice@contoso.com/ca", ["targeted": false])
            _ = try await client.sendJSON("/_admin/faults", ["route": "keys", "status": 500])
            state.advanceClock(seconds: 60)
            let (_, snapshot) = try await client.sendJSON("/_admin/reset", [:])
            #expect(snapshot["users"]?[0]?["caTargeted"] == true)
            #expect(snapshot["faults"] == [])
            #expect(snapshot["clockOffsetSeconds"] == 0.0)
            #expect(state.requestLogEntries().isEmpty)
        }
    }

    @Test("device code: pending until approved through the admin API, then tokens once")
    func deviceCode() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, started) = try await client.postForm(
                "/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", TestSupport.chatScope)])
            let deviceCode = try #require(started["device_code"]?.stringValue)
            let userCode = try #require(started["user_code"]?.stringValue)
            let poll = { try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", Issuer.deviceCodeGrantType), ("client_id", "chatr"), ("device_code", deviceCode)]) }
            #expect(try await poll().1["error"] == "authorization_pending")
            let (approved, _) = try await client.sendJSON("/_admin/device-codes/\(userCode)/approve", ["upn": "bob@contoso.com"])
            #expect(approved == .ok)
            state.advanceClock(seconds: 1)  // the fixture's interval: a sooner poll is slow_down
            let (status, body) = try await poll()
            #expect(status == .ok)
            #expect(body.jwtClaims("access_token")?["upn"] == "bob@contoso.com")
            #expect(try await poll().1["error"] == "invalid_grant")
        }
    }

    @Test("revoked refresh tokens answer AADSTS50173 with suberror bad_token")
    func revokeRefreshTokens() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, tokens) = try await client.passwordToken("bob@contoso.com")
            let refreshToken = try #require(tokens["refresh_token"]?.stringValue)
            let refresh = { try await client.postForm(
                "/contoso.com/oauth2/v2.0/token",
                [("grant_type", "refresh_token"), ("client_id", "chatr"), ("refresh_token", refreshToken), ("scope", "openid")]) }
            #expect(try await refresh().0 == .ok)
            let (_, revoked) = try await client.sendJSON("/_admin/users/bob@contoso.com/revoke-refresh-tokens", [:])
            #expect(revoked["revoked"] == 1)  // the refresh asked no offline_access: no new refresh token
            let (status, body) = try await refresh()
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [50173])
            #expect(body["suberror"] == "bad_token")
        }
    }
}
