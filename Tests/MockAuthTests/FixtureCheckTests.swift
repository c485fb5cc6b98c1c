import Foundation
import JSON
import LocalServers
import Testing

@testable import MockAuth

/// Fixture mistakes are refused where they are made, naming the JSON path and the closest
/// known name (issue 51 point 6), not found later as a missing 53005 or an AADSTS50011.
@Suite("Fixture checks")
struct FixtureCheckTests {
    /// The demo tenant as a JSON object, to break one member at a time.
    static func contoso() throws -> JSONObject {
        try #require(try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: TestSupport.fixturesPath)))).objectValue)
    }

    /// `document` with the member at `path` (object keys and array indexes) replaced by `value`,
    /// or renamed to `renamed` (value kept) when given.
    static func edit(_ document: JSONValue, _ path: [String], set value: JSONValue? = nil, renamed: String? = nil) -> JSONValue {
        guard let head = path.first else { return value ?? document }
        let rest = Array(path.dropFirst())
        switch document {
        case .array(var items):
            let index = Int(head)!
            items[index] = edit(items[index], rest, set: value, renamed: renamed)
            return .array(items)
        case .object(let object):
            var members: [(String, JSONValue)] = []
            for (key, member) in object {
                if key == head, rest.isEmpty, let renamed { members.append((renamed, member)); continue }
                members.append((key, key == head ? edit(member, rest, set: value, renamed: renamed) : member))
            }
            if object[head] == nil, rest.isEmpty, let value { members.append((head, value)) }
            return .object(JSONObject(members))
        default:
            return document
        }
    }

    static func refusal(_ document: JSONValue) -> FixtureError? {
        do {
            _ = try Fixtures(json: document)
            return nil
        } catch {
            return error as? FixtureError
        }
    }

    @Test("the demo tenants pass")
    func demoTenantsPass() throws {
        for name in ["contoso.json", "contoso-intl.json"] {
            let path = URL(fileURLWithPath: TestSupport.fixturesPath).deletingLastPathComponent().appendingPathComponent(name).path
            _ = try Fixtures.load(path: path)
        }
    }

    /// The mistakes, each a key misspelt somewhere else in the document.
    @Test("an unknown key is refused with its path and the closest known key", arguments: [
        (["users", "0", "caTargeted"], "caTargetted", "$.users[0].caTargetted", "closest known: 'caTargeted'"),
        (["users", "2", "mamPolicyAssigned"], "mamPolicyAsigned", "$.users[2].mamPolicyAsigned", "closest known: 'mamPolicyAssigned'"),
        (["clients", "0", "redirectUris"], "redirectUri", "$.clients[0].redirectUri", "closest known: 'redirectUris'"),
        (["lifetimes"], "lifetime", "$.lifetime", "closest known: 'lifetimes'"),
        (["tenant", "displayName"], "displayname", "$.tenant.displayname", "closest known: 'displayName'"),
        (["apis", "0", "declinedScopes"], "declineScopes", "$.apis[0].declineScopes", "closest known: 'declinedScopes'"),
        (["lifetimes", "deviceCodeIntervalSeconds"], "deviceCodeInterval", "$.lifetimes.deviceCodeInterval", "closest known: 'deviceCodeIntervalSeconds'"),
        // Issue 52's keys.
        (["clients", "2", "certificates"], "certificate", "$.clients[2].certificate", "closest known: 'certificates'"),
        (["apis", "0", "optionalClaims"], "optionalClaim", "$.apis[0].optionalClaim", "closest known: 'optionalClaims'"),
        (["users", "6", "microsoftAccount"], "microsoftAcount", "$.users[6].microsoftAcount", "closest known: 'microsoftAccount'"),
    ])
    func unknownKey(path: [String], renamed: String, at place: String, closest: String) throws {
        let document = Self.edit(.object(try Self.contoso()), path, renamed: renamed)
        let error = try #require(Self.refusal(document), "\(place) was accepted")
        #expect(error.path == place)
        #expect(error.message.contains("unknown key '\(renamed)'"), "\(error)")
        #expect(error.message.contains(closest), "\(error)")
    }

    @Test("a key like none known is refused with the known keys")
    func unknownKeyWithoutNeighbour() throws {
        let document = Self.edit(.object(try Self.contoso()), ["users", "1", "favouriteColour"], set: "blue")
        let error = try #require(Self.refusal(document))
        #expect(error.path == "$.users[1].favouriteColour")
        #expect(!error.message.contains("closest"), "\(error)")
        #expect(error.message.contains("known: upn, objectId, displayName, password, caTargeted, mamPolicyAssigned"), "\(error)")
    }

    @Test("a misspelt required key is named as such, not as missing")
    func misspeltRequiredKey() throws {
        let document = Self.edit(.object(try Self.contoso()), ["users", "0", "upn"], renamed: "upm")
        let error = try #require(Self.refusal(document))
        #expect(error.path == "$.users[0].upm")
        #expect(error.message == "unknown key 'upm' (closest known: 'upn', which is required)")
    }

    @Test("the same id twice, an empty policy and a number past its range are refused at the member", arguments: [
        (["clients", "1", "clientId"], JSONValue.string("CHATR"), "$.clients[1]", "clientId 'CHATR' appears twice (also at [0])"),
        (["users", "1", "objectId"], .string("00000000-0000-0000-0000-00000000a11c"), "$.users[1]", "objectId '00000000-0000-0000-0000-00000000a11c' appears twice (also at [0])"),
        (["mamPolicy", "appIds"], ["chatr", "chatr"], "$.mamPolicy.appIds[1]", "app 'chatr' appears twice (also at [0])"),
        (["mamPolicy", "appIds"], [], "$.mamPolicy.appIds", "names no app, so the policy applies to none"),
        (["mamPolicy", "version"], .int(9_223_372_036_854_775_807), "$.mamPolicy.version", "must be a whole number from 1 to 1000000000"),
        (["lifetimes", "accessTokenSeconds"], .int(1_000_000_001), "$.lifetimes.accessTokenSeconds", "must be a whole number from 1 to 1000000000"),
    ] as [([String], JSONValue, String, String)])
    func duplicatesAndRanges(path: [String], value: JSONValue, at place: String, message: String) throws {
        var document = JSONValue.object(try Self.contoso())
        if path.first == "users" {
            // The first user's object id, given to the second.
            let first = try #require(document["users"]?[0]?["objectId"]?.stringValue)
            document = Self.edit(document, path, set: .string(first.uppercased()))
            let error = try #require(Self.refusal(document))
            #expect(error.path == place && error.message.lowercased().hasPrefix("objectid '\(first.lowercased())' appears twice (also at [0])"), "\(error)")
            return
        }
        if path.first == "lifetimes", document["lifetimes"] == nil { document = Self.edit(document, ["lifetimes"], set: [:]) }
        let error = try #require(Self.refusal(Self.edit(document, path, set: value)))
        #expect(error.path == place, "\(error)")
        #expect(error.message.hasPrefix(message), "\(error)")
    }

    @Test("a policy app that is no client is refused with the clients")
    func policyNamingNoClient() throws {
        let document = Self.edit(.object(try Self.contoso()), ["mamPolicy", "appIds"], set: ["chatr", "chatrr"])
        let error = try #require(Self.refusal(document))
        #expect(error.path == "$.mamPolicy.appIds[1]")
        #expect(error.message.hasPrefix("'chatrr' names no client (closest known: 'chatr'; clients: chatr, "), "\(error)")
    }

    @Test("a redirect URI no client can use is refused", arguments: [
        ("redirectUris", "localhost:3000/callback", "is not an absolute URI"),
        ("redirectUris", "/auth", "is not an absolute URI"),
        ("redirectUris", "http://chatr.contoso.com/auth", "uses http on a host other than the loopback"),
        ("spaRedirectUris", "msauth.com.contoso.chatr://auth", "is not https (or loopback http)"),
    ])
    func unusableRedirectURI(key: String, uri: String, problem: String) throws {
        let document = Self.edit(.object(try Self.contoso()), ["clients", "0", key], set: [.string("http://localhost"), .string(uri)])
        let error = try #require(Self.refusal(document), "\(uri) was accepted")
        #expect(error.path == "$.clients[0].\(key)[1]")
        #expect(error.message.contains(problem), "\(error)")
    }

    @Test("a redirect URI a client can use is accepted", arguments: [
        "msauth.com.contoso.chatr://auth", "http://127.0.0.1:8400/cb", "http://[::1]/", "https://app.example/cb", "urn:ietf:wg:oauth:2.0:oob",
    ])
    func usableRedirectURI(uri: String) throws {
        let document = Self.edit(.object(try Self.contoso()), ["clients", "0", "redirectUris"], set: [.string(uri)])
        #expect(Self.refusal(document) == nil)
    }

    @Test("a user flag that is not a boolean is named with what it holds", arguments: [
        ("caTargeted", JSONValue.string("yes"), "found string \"yes\""),
        ("mfaRequired", JSONValue.int(1), "found integer 1"),
        ("accountEnabled", JSONValue.null, "found null"),
    ])
    func nonBooleanFlag(flag: String, value: JSONValue, found: String) throws {
        let document = Self.edit(.object(try Self.contoso()), ["users", "3", flag], set: value)
        let error = try #require(Self.refusal(document))
        #expect(error.path == "$.users[3].\(flag)")
        #expect(error.message == "must be true or false, \(found)")
    }

    @Test("a misspelt policy setting names the closest known setting")
    func misspeltSetting() throws {
        let document = Self.edit(.object(try Self.contoso()), ["mamPolicy", "settings", "pinRequired"], renamed: "pinRequried")
        let error = try #require(Self.refusal(document))
        #expect(error.path == "$.mamPolicy.settings.pinRequried")
        #expect(error.message.hasPrefix("unknown policy setting 'pinRequried' (closest known: 'pinRequired'; known: fileEncryptionRequired, "), "\(error)")
    }

    @Test("lockout may turn a rule off with 0")
    func lockoutZero() throws {
        let document = Self.edit(.object(try Self.contoso()), ["lockout"], set: ["threshold": 0, "durationSeconds": 60, "deviceCodeGuesses": 0])
        let fixtures = try Fixtures(json: document)
        #expect(fixtures.lockout.threshold == 0)
        #expect(fixtures.lockout.deviceCodeGuesses == 0)
    }

    /// `mockauth check` and `mockauth serve` refuse the same file, exit 65, naming the path.
    @Test("mockauth check and serve refuse a misspelt key with exit 65; check passes the demo tenant")
    func executables() async throws {
        let executable = ChildServer.executable("mockauth")
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build mockauth first: \(executable)")
        let document = Self.edit(.object(try Self.contoso()), ["users", "0", "caTargeted"], renamed: "caTargetted")
        let path = NSTemporaryDirectory() + "fixture-check-" + UUID().uuidString.prefix(8) + ".json"
        try Data(document.encoded()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let wanted = "mockauth: \(path): $.users[0].caTargetted: unknown key 'caTargetted' (closest known: 'caTargeted'; known: upn,"
        let check = try await Command.run(executable, ["check", path], timeout: .seconds(30))
        #expect(check.status == 65)
        #expect(check.stderr.hasPrefix(wanted), "\(check.stderr)")
        let serve = try await Command.run(executable, ["serve", "--port", "0", "--fixtures", path], timeout: .seconds(30))
        #expect(serve.status == 65)
        #expect(serve.stderr.contains(wanted), "\(serve.stderr)")
        #expect(serve.stdout.isEmpty, "\(serve.stdout)")
        let good = try await Command.run(executable, ["check", TestSupport.fixturesPath], timeout: .seconds(30))
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == "\(TestSupport.fixturesPath): ok: tenant contoso.com (8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d), 6 clients, 3 APIs, 7 users, policy pol-chatr for chatr, chatr-gov\n")
    }
}
