import Foundation
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

@Suite("Admin API: body-shaping faults, generated users, issued secrets")
struct BodyFaultTests {
    @Test("wrongContentType serves the route's JSON (errors too) as text/html; oversized pads it to the size asked")
    func bodyShapingFaults() async throws {
        try await TestSupport.withRouterApp { client, _ in
            _ = try await client.sendJSON("/_admin/faults", ["route": "keys", "action": "wrongContentType"])
            let relabelled = try await client.execute(uri: "/contoso.com/discovery/v2.0/keys", method: .get)
            #expect(relabelled.status == .ok && relabelled.headers[.contentType] == "text/html; charset=utf-8")
            #expect((try JSONValue.parse(Array(relabelled.body.readableBytesView)))["keys"]?.arrayValue?.count == 2)

            _ = try await client.sendJSON("/_admin/faults", ["route": "token", "action": "wrongContentType"])
            let (status, error) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(status == .badRequest && error["error_codes"] == [53005])

            _ = try await client.sendJSON("/_admin/faults", ["route": "keys", "action": "oversized", "bytes": 100_000])
            let padded = try await client.execute(uri: "/contoso.com/discovery/v2.0/keys", method: .get)
            #expect(padded.body.readableBytes == 100_000)
            #expect((try JSONValue.parse(Array(padded.body.readableBytesView)))["keys"] != nil, "still valid JSON")
            let (badSize, _) = try await client.sendJSON("/_admin/faults", ["route": "keys", "action": "oversized", "bytes": 0])
            #expect(badSize == .badRequest)

            // A wrong method gets the router's JSON 404, padded like any other answer.
            _ = try await client.sendJSON("/_admin/faults", ["route": "keys", "action": "oversized", "bytes": 300])
            let wrongMethod = try await client.execute(uri: "/contoso.com/discovery/v2.0/keys", method: .delete)
            #expect(wrongMethod.status == .notFound && wrongMethod.body.readableBytes == 300)
            #expect((try JSONValue.parse(Array(wrongMethod.body.readableBytesView)))["error"] == "not_found")
        }
    }

    /// Each user appended to the fixtures rebuilt the UPN index, and the state view checked
    /// each user against the whole allowed list: 10 000 users took minutes (100 000, the
    /// documented maximum, hours), with the state locked, so every request waited. The limit
    /// ends such a regression as a failure; it times nothing that works (5 minutes: a clean-
    /// clone CI beside two builds took 88 s for what takes seconds on a quiet machine).
    @Test("10 000 generated users are made in one go; tokens, policy checks and the state view work", .timeLimit(.minutes(5)))
    func manyGeneratedUsers() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (created, generated) = try await client.sendJSON("/_admin/users/generate", ["count": 10_000])
            #expect(created == .ok && generated["users"] == 10_007)
            #expect(try await client.passwordToken("load10000@contoso.com", claims: TestSupport.protapp).1["error_codes"] == [53005])
            #expect(state.directory.mamPolicy.allows(upn: "LOAD10000@contoso.com"))
            #expect(!state.directory.mamPolicy.allows(upn: "load10001@contoso.com"))
            let view = try await client.execute(uri: "/_admin/state", method: .get)
            #expect(view.status == .ok)
            let users = try JSONValue.parse(Array(view.body.readableBytesView), limits: JSONLimits(maxBytes: 16 << 20))["users"]?.arrayValue
            #expect(users?.count == 10_007)
            #expect(users?.last?["allowedByPolicy"] == true)
        }
    }

    @Test("generated users are alice-like and allowed; a reset removes them; issued secrets are listed when recorded")
    func generatedUsersAndIssuedSecrets() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (created, generated) = try await client.sendJSON("/_admin/users/generate", ["count": 3])
            #expect(created == .ok && generated["users"] == 10 && generated["first"] == "load00001@contoso.com")
            #expect(try await client.passwordToken("load00002@contoso.com", claims: TestSupport.protapp).1["error_codes"] == [53005])
            #expect(state.directory.mamPolicy.allows(upn: "load00003@contoso.com"))
            let (refused, _) = try await client.sendJSON("/_admin/users/generate", ["count": 2, "prefix": "Bad Prefix"])
            #expect(refused == .badRequest)
            let (notAString, prefixError) = try await client.sendJSON("/_admin/users/generate", ["count": 2, "prefix": 5])
            #expect(notAString == .badRequest && prefixError["error_description"] == "'prefix' must be a string.")
            let (_, none) = try await client.sendJSON("/_admin/users/generate", ["count": 0, "prefix": .null])  // null: the default
            #expect(none["users"] == 10 && none["first"] == .null, "no user was generated: \(none)")
            // Another prefix makes other users: no object id is shared, so no token's oid, sub
            // or client_info either.
            let version = state.directory.mamPolicy.version
            let (_, more) = try await client.sendJSON("/_admin/users/generate", ["count": 3, "prefix": "bench"])
            #expect(more["users"] == 13)
            let objectIds = state.directory.users.map(\.objectId)
            #expect(Set(objectIds).count == objectIds.count)
            #expect(objectIds.allSatisfy { UUID(uuidString: $0) != nil })
            #expect(state.directory.user(upn: "load00001@contoso.com")?.objectId != state.directory.user(upn: "bench00001@contoso.com")?.objectId)
            // The allowed accounts changed: a new policy version, as for any change of the list.
            #expect(state.directory.mamPolicy.version == version + 1)
            #expect(state.directory.mamPolicy.allows(upn: "bench00003@contoso.com"))
            let (_, again) = try await client.sendJSON("/_admin/users/generate", ["count": 3, "prefix": "bench"])
            #expect(again["users"] == 13)
            #expect(state.directory.mamPolicy.version == version + 1)

            state.setRecordsIssuedTokens(true)
            let (ok, tokens) = try await client.passwordToken("bob@contoso.com")
            #expect(ok == .ok)
            let issued = state.issuedSecrets()
            for key in ["access_token", "refresh_token", "id_token"] {
                #expect(issued.contains(try #require(tokens[key]?.stringValue)), "\(key) is listed")
            }
            _ = try await client.sendJSON("/_admin/reset", [:])
            #expect(state.directory.user(upn: "load00001@contoso.com") == nil)
            #expect(state.issuedSecrets().isEmpty)
        }
    }
}
