import LocalServers
import HTTPClient
import JSON
import Logging
import Orchestrator
import Testing

@Suite struct MAMClientTests {
    let http = HTTPClient()

    func mamToken(_ mock: InProcessMockAuth.Running, user: String) async throws -> String {
        let issuer = IssuerClient(
            configuration: IssuerConfiguration(authority: .entra(mock.authority), clientID: "chatr", redirectURI: "http://localhost"),
            http: http, logger: Logger(label: "test"))
        let reply = try await issuer.requestToken(.password(username: user, password: "Passw0rd!"), scopes: [MAMClient.scope], claims: nil)
        #expect(reply.status == 200, "the MAM resource is never behind the CA policy")
        return try #require(try JSONValue.parse(reply.body)["access_token"]?.stringValue)
    }

    @Test func aliceEnrollsChecksInReportsComplianceAndUnenrolls() async throws {
        try await InProcessMockAuth.run { mock in
            let mam = MAMClient(baseURL: mock.mamURL, http: http, logger: Logger(label: "test"))
            let token = try await mamToken(mock, user: "alice@contoso.com")
            let enrolled = try await mam.enroll(appID: "chatr", token: token)
            #expect(enrolled.statusCode == 100)
            let enrollmentID = try #require(enrolled.json["enrollmentId"]?.stringValue)
            let version = enrolled.json["policy"]?["version"]?.intValue
            #expect(enrolled.json["policy"]?["allowedAccounts"]?.arrayValue?.count == 3)

            let checkIn = try await mam.checkIn(enrollmentID: enrollmentID, policyVersion: version, token: token)
            #expect(checkIn.statusCode == 101)
            let report = try await mam.reportCompliance(enrollmentID: enrollmentID, policyVersion: version, token: token)
            #expect(report.json["complianceStatus"] == 0)
            let unenrolled = try await mam.unenroll(enrollmentID: enrollmentID, token: token)
            #expect(unenrolled.statusCode == 104)
        }
    }

    @Test func carolHasNoPolicy() async throws {
        try await InProcessMockAuth.run { mock in
            let mam = MAMClient(baseURL: mock.mamURL, http: http, logger: Logger(label: "test"))
            let reply = try await mam.enroll(appID: "chatr", token: try await mamToken(mock, user: "carol@contoso.com"))
            #expect(reply.statusCode == 225)
        }
    }

    @Test func aBadTokenIsUnauthorized() async throws {
        try await InProcessMockAuth.run { mock in
            let mam = MAMClient(baseURL: mock.mamURL, http: http, logger: Logger(label: "test"))
            let error = await #expect(throws: MAMClientError.self) { _ = try await mam.enroll(appID: "chatr", token: "not-a-jwt") }
            #expect(error?.code == .unauthorized)
        }
    }

    @Test func anUnreachableServiceIsANetworkError() async throws {
        let mam = MAMClient(baseURL: "http://127.0.0.1:1/mam/v1", http: http, logger: Logger(label: "test"))
        let error = await #expect(throws: MAMClientError.self) { _ = try await mam.enroll(appID: "chatr", token: "t") }
        #expect(error?.code == .network)
    }
}
