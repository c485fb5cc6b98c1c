import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 7: a redirect URI with a fragment or a port outside 1–65535 is refused.
@Suite("Redirect URI shapes")
struct RedirectURIRuleTests {
    @Test("authorize shows an error page for a fragment or a bad loopback port; 1 and 65535 pass")
    func authorizeRefusesBadShapes() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for uri in ["http://localhost:5555#x", "http://localhost#", "msauth.com.contoso.chatr://auth#frag",
                        "http://localhost:0", "http://localhost:65536", "http://127.0.0.1:99999999999999999999/",
                        "http://localhost:-1", "http://localhost:+80", "http://localhost:",
                        "http://user:pw@localhost/", "http://evil@127.0.0.1:80"] {
                let response = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: uri), method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.headers[.location] == nil, "\(uri)")
                #expect(String(buffer: response.body).contains("AADSTS50011"), "\(uri)")
            }
            for uri in ["http://localhost:1", "http://127.0.0.1:65535/", "http://localhost"] {
                let response = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(redirect: uri), method: .get)
                #expect(response.status == .ok, "\(uri)")
            }
        }
    }

    @Test("the shape rules read ports after IPv6 literals and user info")
    func explicitPorts() {
        #expect(RedirectURIRules.explicitPort("http://[::1]:8080/x") == "8080")
        #expect(RedirectURIRules.explicitPort("http://[::1]/x") == nil)
        #expect(RedirectURIRules.explicitPort("http://u:p@host:9/") == "9")
        #expect(RedirectURIRules.problem("http://[::1]:0/") != nil)
        #expect(RedirectURIRules.problem("msauth.com.contoso.chatr://auth") == nil)
    }

    @Test("fixtures that register a fragment or port 0 are refused when loaded")
    func fixturesRefuseBadRegistrations() throws {
        let text = try String(contentsOfFile: TestSupport.fixturesPath, encoding: .utf8)
        for bad in ["http://localhost/#x", "http://localhost:0/"] {
            let edited = text.replacingOccurrences(of: "\"msauth.com.contoso.chatr://auth\"", with: "\"\(bad)\"")
            #expect(edited != text)
            #expect(throws: FixtureError.self) { try Fixtures(json: try JSONValue.parse(edited)) }
        }
    }
}
