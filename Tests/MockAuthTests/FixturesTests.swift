import Foundation
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

@Suite("Fixtures and small parsers")
struct FixturesTests {
    @Test("contoso.json describes the documented demo tenant")
    func contoso() throws {
        let fixtures = try TestSupport.fixtures()
        #expect(fixtures.tenant.domain == "contoso.com")
        #expect(fixtures.user(upn: "ALICE@Contoso.com")?.caTargeted == true)
        #expect(fixtures.user(upn: "carol@contoso.com")?.mamPolicyAssigned == false)
        #expect(fixtures.mamPolicy.allows(upn: "dave@contoso.com") == false)
        #expect(fixtures.client(id: "chatr")?.isPublic == true)
        #expect(fixtures.client(id: "contoso-daemon")?.secret != nil)
        #expect(fixtures.acceptsTenantSegment("Organizations"))
        #expect(!fixtures.acceptsTenantSegment("fabrikam.com"))
    }

    @Test("a fixture file starting with a UTF-8 byte-order mark loads")
    func byteOrderMark() throws {
        let bytes = JSONValue.byteOrderMark + Array(try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixturesPath)))
        let path = NSTemporaryDirectory() + "fixture-bom-" + UUID().uuidString.prefix(8) + ".json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Fixtures.load(path: path).tenant.domain == "contoso.com")
    }

    @Test("a broken fixture names the member at fault")
    func brokenFixture() throws {
        var document = try #require(try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixturesPath)))).objectValue)
        var settings = try #require(document["mamPolicy"]?["settings"]?.objectValue)
        settings["pinRequired"] = "no"
        var policy = try #require(document["mamPolicy"]?.objectValue)
        policy["settings"] = .object(settings)
        document["mamPolicy"] = .object(policy)
        #expect(throws: FixtureError.self) { try Fixtures(json: .object(document)) }
        document["tenant"] = nil
        do {
            _ = try Fixtures(json: .object(document))
            Issue.record("expected a FixtureError")
        } catch let error as FixtureError {
            #expect(error.path == "$.tenant")
        }
    }

    @Test("an unlicensed user enrolls with 200 AccountNotLicensed")
    func unlicensed() async throws {
        var fixtures = try TestSupport.fixtures()
        fixtures.users[1].licensed = false
        let (app, _) = try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: TestSupport.logger)
        try await app.test(.router) { client in
            let token = try await MAMServiceTests.mamToken(client, "bob@contoso.com")
            let (_, enrolled) = try await client.sendJSON("/mam/v1/enroll", [:], bearer: token)
            #expect(enrolled["status"] == 200)
            #expect(enrolled["statusName"] == "AccountNotLicensed")
        }
    }

    @Test("loopback redirect URIs match on any port; others match exactly", arguments: [
        ("http://localhost:8400", "http://localhost", true),
        ("http://localhost", "http://localhost", true),
        ("http://localhost:8400/", "http://localhost", true),
        ("http://localhost:8400/cb", "http://localhost", false),
        ("https://localhost:8400", "http://localhost", false),
        ("http://127.0.0.1:8400", "http://localhost", false),
        ("msauth.com.contoso.chatr://auth", "msauth.com.contoso.chatr://auth", true),
        ("msauth.com.contoso.chatr://auth2", "msauth.com.contoso.chatr://auth", false),
    ])
    func redirectMatching(uri: String, registered: String, matches: Bool) {
        #expect(AuthorizeRequest.matches(uri, registered: registered) == matches)
    }

    @Test("form parsing decodes + and %XX and refuses repeats")
    func formParsing() throws {
        let form = try FormParameters.parse("scope=openid+api%3A%2F%2Fx%2FY&empty=&flag")
        #expect(form["scope"] == "openid api://x/Y")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form.nonEmpty("empty") == nil)
        #expect(throws: OAuthError.self) { try FormParameters.parse("a=1&a=2") }
        #expect(throws: OAuthError.self) { try FormParameters.parse("a=%G1") }
        #expect(throws: OAuthError.self) { try FormParameters.parse("a=%4") }
        #expect(throws: OAuthError.self) { try FormParameters.parse("a=%C3") }  // not UTF-8
        #expect(try FormParameters.parse("%61%2b=x%3Dy%C3%A9+z")["a+"] == "x=yé z")
        #expect(try FormParameters.parse(FormParameters.encode([("k", "a b&c=d/é")]))["k"] == "a b&c=d/é")
    }
}

@Suite("Unknown routes")
struct UnknownRouteTests {
    @Test("an unknown path answers 404 JSON and is logged")
    func notFound() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (status, body) = try await client.sendJSON("/nope/nothing", method: .get)
            #expect(status == .notFound)
            #expect(body["error"] == "not_found")
            #expect(state.requestLogEntries().last?.status == 404)
        }
    }
}
