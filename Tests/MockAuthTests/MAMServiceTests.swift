import Foundation
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

@Suite("MAM service: enrollment, check-in, compliance, wipe, authentication")
struct MAMServiceTests {
    /// A MAM-resource token for `upn`.
    static func mamToken(_ client: any TestClientProtocol, _ upn: String) async throws -> String {
        let (status, body) = try await client.passwordToken(upn, scope: TestSupport.mamScope, claims: TestSupport.protapp)
        try #require(status == .ok, "no MAM token for \(upn): \(body)")
        return try #require(body["access_token"]?.stringValue)
    }

    @Test("alice remediates: enroll (100), report compliance, then CA lets her through")
    func aliceRemediates() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (blocked, _) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(blocked == .badRequest)
            let token = try await Self.mamToken(client, "alice@contoso.com")
            let (status, enrolled) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: token)
            #expect(status == .ok)
            #expect(enrolled["status"] == 100)
            #expect(enrolled["statusName"] == "NewPoliciesReceived")
            #expect(enrolled["accountAllowed"] == true)
            #expect(enrolled["policy"]?["fileEncryptionRequired"] == true)
            #expect(enrolled["policy"]?["allowedAccounts"] == ["alice@contoso.com", "bob@contoso.com", "carol@contoso.com"])
            let id = try #require(enrolled["enrollmentId"]?.stringValue)

            let (_, again) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(again["status"] == 208)
            let (_, unchanged) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token)
            #expect(unchanged["status"] == 101)

            let (_, report) = try await client.sendJSON(
                "/mam/v1/report-compliance", ["enrollmentId": .string(id), "policyVersion": 1], bearer: token)
            #expect(report["complianceStatus"] == 0)
            let (passed, tokens) = try await client.passwordToken("alice@contoso.com", claims: TestSupport.protapp)
            #expect(passed == .ok)
            #expect(tokens.jwtClaims("access_token")?["xms_cc"] == ["protapp"])
        }
    }

    @Test("carol is not targeted (225) and can never become compliant")
    func carolNotTargeted() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let token = try await Self.mamToken(client, "carol@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(enrolled["status"] == 225)
            #expect(enrolled["statusName"] == "LicensedNotTargeted")
            #expect(enrolled["enrollmentId"] == nil)
            let (_, report) = try await client.sendJSON("/mam/v1/report-compliance", ["enrollmentId": "made-up"], bearer: token)
            #expect(report["status"] == 213)
            // The body is checked first, as at check-in: a bad field is a 400 even for an unknown enrollment.
            for (name, value) in [("policyVersion", JSONValue.string("x")), ("compliant", JSONValue.string("yes"))] {
                let (refused, _) = try await client.sendJSON(
                    "/mam/v1/report-compliance", .object(JSONObject([("enrollmentId", "made-up"), (name, value)])), bearer: token)
                #expect(refused == .badRequest, "\(name)")
            }
            let (status, _) = try await client.passwordToken("carol@contoso.com", claims: TestSupport.protapp)
            #expect(status == .badRequest)
        }
    }

    @Test("dave enrolls but is not an allowed account; his compliance report is refused")
    func daveNotAllowed() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "dave@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(enrolled["status"] == 100)
            #expect(enrolled["accountAllowed"] == false)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            let (_, report) = try await client.sendJSON("/mam/v1/report-compliance", ["enrollmentId": .string(id)], bearer: token)
            #expect(report["complianceStatus"] == 1)
            #expect(report["reason"] == "accountNotAllowed")
            #expect(state.isCompliant(AccountApp(upn: "dave@contoso.com", appId: "chatr")) == false)
        }
    }

    @Test("policy changes arrive at check-in (100); a queued wipe arrives once (102), then 213")
    func policyChangeAndWipe() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "bob@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            let (_, patched) = try await client.sendJSON("/_admin/policy", method: .patch, ["openLinksInManagedBrowser": false])
            #expect(patched["version"] == 2)
            let (_, changed) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token)
            #expect(changed["status"] == 100)
            #expect(changed["policy"]?["openLinksInManagedBrowser"] == false)
            #expect(changed["policy"]?["etag"] == #"W/"pol-chatr-v2""#)

            let (_, queued) = try await client.sendJSON("/_admin/users/BOB@contoso.com/wipe", ["appId": "chatr"])
            #expect(queued["queued"] == true)
            let (_, wipe) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id), "policyVersion": 2], bearer: token)
            #expect(wipe["status"] == 102)
            #expect(wipe["statusName"] == "WipeReceived")
            let (_, after) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token)
            #expect(after["status"] == 213)
            #expect(state.enrollments.isEmpty)
        }
    }

    @Test("a wipe queued before (user, app) enrolls waits; the first check-in of the next enrollment gets it (102)")
    func wipeQueuedBeforeEnrollmentWaits() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "bob@contoso.com")
            let (_, queued) = try await client.sendJSON("/_admin/users/bob@contoso.com/wipe", ["appId": "chatr"])
            #expect(queued["queued"] == true)
            // Enrolling neither delivers nor drops it.
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(enrolled["status"] == 100)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            #expect(state.pendingWipeList == [AccountApp(upn: "bob@contoso.com", appId: "chatr")])
            let (_, wipe) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token)
            #expect(wipe["status"] == 102)
            #expect(state.pendingWipeList.isEmpty && state.enrollments.isEmpty)
            // Delivered once: a new enrollment checks in normally.
            let (_, again) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            let newId = try #require(again["enrollmentId"]?.stringValue)
            let (_, checkIn) = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(newId)], bearer: token)
            #expect(checkIn["status"] == 101)
        }
    }

    @Test("of concurrent check-ins of one enrollment with a wipe queued, one gets the wipe (102) and the others 213")
    func concurrentCheckInsDeliverOneWipe() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "bob@contoso.com")
            // Before the lookup and the wipe were one locked step, about 1 round in 10 had a
            // check-in answered 101 for the enrollment being wiped; 100 rounds catch that.
            for _ in 0..<100 {
                let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
                let id = try #require(enrolled["enrollmentId"]?.stringValue)
                state.queueWipe(AccountApp(upn: "bob@contoso.com", appId: "chatr"))
                let statuses = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
                    for _ in 0..<8 {
                        group.addTask { try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token).1["status"] }
                    }
                    return try await group.reduce(into: [JSONValue?]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == 102 }.count == 1, "statuses: \(statuses)")
                #expect(statuses.filter { $0 == 213 }.count == 7, "statuses: \(statuses)")
                #expect(state.enrollments.isEmpty)
            }
        }
    }

    @Test("a compliance report racing the wipe of its enrollment never leaves the wiped account compliant")
    func complianceReportRacingAWipe() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "alice@contoso.com")
            let account = AccountApp(upn: "alice@contoso.com", appId: "chatr")
            // Before a report marked compliance only while its enrollment existed (one locked
            // step), about 1 round in 40 left the wiped account compliant; 300 rounds catch that.
            for _ in 0..<300 {
                let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
                let id = try #require(enrolled["enrollmentId"]?.stringValue)
                state.queueWipe(account)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { _ = try await client.sendJSON("/mam/v1/checkin", ["enrollmentId": .string(id)], bearer: token) }
                    for _ in 0..<8 {
                        group.addTask { _ = try await client.sendJSON("/mam/v1/report-compliance", ["enrollmentId": .string(id)], bearer: token) }
                    }
                    try await group.waitForAll()
                }
                #expect(state.enrollments.isEmpty)
                #expect(!state.isCompliant(account), "the wiped account is left compliant")
                state.resetCompliance(account)
            }
        }
    }

    @Test("unenroll answers 104 and forgets compliance")
    func unenroll() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "alice@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            let id = try #require(enrolled["enrollmentId"]?.stringValue)
            _ = try await client.sendJSON("/mam/v1/report-compliance", ["enrollmentId": .string(id)], bearer: token)
            #expect(state.isCompliant(AccountApp(upn: "alice@contoso.com", appId: "chatr")))
            let (_, removed) = try await client.sendJSON("/mam/v1/unenroll", ["enrollmentId": .string(id)], bearer: token)
            #expect(removed["status"] == 104)
            #expect(state.isCompliant(AccountApp(upn: "alice@contoso.com", appId: "chatr")) == false)
        }
    }

    @Test("missing, foreign-audience, tampered and expired tokens get 401 JSON; bad JSON gets 400")
    func authentication() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (none, noneBody) = try await client.sendJSON("/mam/v1/enroll", [:])
            #expect(none == .unauthorized)
            #expect(noneBody["error"] == "invalid_token")
            let (_, chat) = try await client.passwordToken("bob@contoso.com")
            let chatToken = try #require(chat["access_token"]?.stringValue)
            let (wrongAudience, audienceBody) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: chatToken)
            #expect(wrongAudience == .unauthorized)
            #expect(audienceBody["error_description"]?.stringValue?.contains("audience") == true)
            let token = try await Self.mamToken(client, "bob@contoso.com")
            var parts = token.split(separator: ".").map(String.init)
            parts[1] = Base64URL.encode(Array(#"{"aud":"https://msmamservice.api.application","upn":"alice@contoso.com","exp":9999999999}"#.utf8))
            let (tampered, _) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: parts.joined(separator: "."))
            #expect(tampered == .unauthorized)
            let response = try await client.execute(
                uri: "/mam/v1/enroll", method: .post, headers: [.authorization: "Bearer \(token)"], body: .init(string: "{oops"))
            #expect(response.status == .badRequest)
            state.advanceClock(seconds: 7200)
            let (expired, expiredBody) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(expired == .unauthorized)
            #expect(expiredBody["error_description"]?.stringValue?.contains("expired") == true)
        }
    }

    @Test("concurrent enrollments of one account create one enrollment")
    func concurrentEnroll() async throws {
        try await TestSupport.withRouterApp { client, state in
            let token = try await Self.mamToken(client, "bob@contoso.com")
            let statuses = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
                for _ in 0..<8 { group.addTask { try await client.sendJSON("/mam/v1/enroll", [:], bearer: token).1["status"] } }
                var statuses: [JSONValue?] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.filter { $0 == 100 }.count == 1)
            #expect(statuses.filter { $0 == 208 }.count == 7)
            #expect(state.enrollments.count == 1)
        }
    }
}
