import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// Issue 41 point 10: the device-code interval (5 s unless the fixture says otherwise) and `slow_down`.
@Suite("Device-code polling interval")
struct DeviceCodeIntervalTests {
    /// The demo tenant with the fixture's interval left out (nil: Entra's 5 s) or set to `seconds`.
    static func withInterval(_ seconds: Int?, _ body: @Sendable (any TestClientProtocol, MockState) async throws -> Void) async throws {
        let text = try String(contentsOfFile: TestSupport.fixturesPath, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: ",\n    \"deviceCodeIntervalSeconds\": 1", with: seconds.map { ",\n    \"deviceCodeIntervalSeconds\": \($0)" } ?? "")
        #expect(edited != text)
        let fixtures = try Fixtures(json: try JSONValue.parse(edited))
        let (app, state) = try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: TestSupport.logger)
        try await app.test(.router) { client in try await body(client, state) }
    }

    static func poll(_ client: any TestClientProtocol, _ deviceCode: String) async throws -> JSONValue {
        try await client.postForm(
            "/contoso.com/oauth2/v2.0/token",
            [("grant_type", Issuer.deviceCodeGrantType), ("client_id", "chatr"), ("device_code", deviceCode)]).1
    }

    @Test("the interval is 5 s by default; polling sooner is slow_down and adds 5 s; the demo tenant says 1 s")
    func slowDown() async throws {
        try await Self.withInterval(nil) { client, _ in
            let (_, started) = try await client.postForm("/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", TestSupport.chatScope)])
            #expect(started["interval"] == 5)
        }
        // The slow_down rules with a long interval, so that real time passing between two polls
        // (a busy machine) cannot reach it: only the mock clock's moves do.
        try await Self.withInterval(120) { client, state in
            let (_, started) = try await client.postForm("/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", TestSupport.chatScope)])
            #expect(started["interval"] == 120)
            let deviceCode = try #require(started["device_code"]?.stringValue)
            let userCode = try #require(started["user_code"]?.stringValue)
            #expect(try await Self.poll(client, deviceCode)["error"] == "authorization_pending")
            let fast = try await Self.poll(client, deviceCode)
            #expect(fast["error"] == "slow_down", "\(fast)")
            state.advanceClock(seconds: 2)  // the interval is 125 s now
            #expect(try await Self.poll(client, deviceCode)["error"] == "slow_down")
            state.advanceClock(seconds: 135)
            #expect(try await Self.poll(client, deviceCode)["error"] == "authorization_pending")
            #expect(state.completeDeviceCode(userCode: userCode, upn: "bob@contoso.com"))
            state.advanceClock(seconds: 135)
            #expect(try await Self.poll(client, deviceCode)["access_token"]?.stringValue != nil)
        }
        try await TestSupport.withRouterApp { client, _ in
            let (_, started) = try await client.postForm("/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", TestSupport.chatScope)])
            #expect(started["interval"] == 1)
        }
    }

    @Test("an interval outside 1–300 s does not load")
    func intervalRange() throws {
        let text = try String(contentsOfFile: TestSupport.fixturesPath, encoding: .utf8)
        for bad in ["0", "301", "-5"] {
            let edited = text.replacingOccurrences(of: "\"deviceCodeIntervalSeconds\": 1", with: "\"deviceCodeIntervalSeconds\": \(bad)")
            #expect(throws: FixtureError.self) { try Fixtures(json: try JSONValue.parse(edited)) }
        }
    }
}
