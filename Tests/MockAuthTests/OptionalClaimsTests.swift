import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 52 item 10: v2.0 access tokens carry `upn` only when the API asks for it.
@Suite("Access-token optional claims")
struct OptionalClaimsTests {
    @Test("the chat API (optionalClaims upn) gets upn; Graph and the MAM service do not, and MAM knows its caller by oid")
    func upnOnlyWhenAsked() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (_, chat) = try await client.passwordToken("bob@contoso.com", scope: "api://contoso-chat/Chat.Read")
            #expect(chat.jwtClaims("access_token")?["upn"] == "bob@contoso.com")
            let (_, graph) = try await client.passwordToken("bob@contoso.com", scope: "User.Read")
            #expect(graph.jwtClaims("access_token") != nil)
            #expect(graph.jwtClaims("access_token")?["upn"] == nil)
            let (_, mam) = try await client.passwordToken("bob@contoso.com", scope: TestSupport.mamScope)
            let token = try #require(mam["access_token"]?.stringValue)
            #expect(mam.jwtClaims("access_token")?["upn"] == nil)
            let (status, enrolled) = try await client.sendJSON("/mam/v1/enroll", ["appId": "chatr"], bearer: token)
            #expect(status == .ok)
            #expect(enrolled["upn"] == "bob@contoso.com")
        }
    }

    @Test("a fixture asking for an optional claim the mock does not issue does not load, naming the member")
    func unknownOptionalClaim() throws {
        let text = try String(contentsOfFile: TestSupport.fixturesPath, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""optionalClaims": ["upn"]"#, with: #""optionalClaims": ["upn", "ipaddr"]"#)
        #expect(edited != text)
        do {
            _ = try Fixtures(json: try JSONValue.parse(edited))
            Issue.record("the fixture loaded")
        } catch let error as FixtureError {
            #expect(error.path == "$.apis[0].optionalClaims")
            #expect(error.message.contains("ipaddr"))
        }
    }
}
