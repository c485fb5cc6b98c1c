import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import Logging
import NIOCore
import Testing

@testable import MockAuth

/// Shared pieces of the MockAuth tests.
enum TestSupport {
    /// One RSA key for the whole run: generating 2048-bit keys per test is slow.
    static let key: SigningKey = {
        do { return try SigningKey.generate() } catch { fatalError("cannot generate a signing key: \(error)") }
    }()

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixturesPath = repositoryRoot.appendingPathComponent("mocks/fixtures/contoso.json").path

    static func fixtures() throws -> Fixtures { try Fixtures.load(path: fixturesPath) }

    static var logger: Logger {
        var logger = Logger(label: "mockauth.tests")
        logger.logLevel = .warning
        return logger
    }

    static let tenantId = "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d"
    static let protapp = #"{"access_token":{"xms_cc":{"values":["protapp"]}}}"#
    static let chatScope = "api://contoso-chat/Chat.Read openid profile offline_access"
    static let mamScope = "https://msmamservice.api.application/.default"

    /// Builds an http application on port 0 and runs `body` with a router (socketless) client.
    static func withRouterApp(
        _ body: @Sendable (any TestClientProtocol, MockState) async throws -> Void
    ) async throws {
        let configuration = MockAuthConfiguration(fixtures: try fixtures(), signingKey: key)
        let (app, state) = try buildApplication(configuration, logger: logger)
        try await app.test(.router) { client in try await body(client, state) }
    }
}

extension TestClientProtocol {
    /// POSTs a form and parses the JSON answer.
    func postForm(_ uri: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, JSONValue) {
        var allHeaders: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        allHeaders.append(contentsOf: headers)
        let response = try await execute(
            uri: uri, method: .post, headers: allHeaders, body: ByteBuffer(string: FormParameters.encode(fields)))
        return (response.status, try JSONValue.parse(Array(response.body.readableBytesView)))
    }

    /// Sends JSON (or nothing) and parses the JSON answer.
    func sendJSON(_ uri: String, method: HTTPRequest.Method = .post, _ body: JSONValue? = nil, bearer: String? = nil) async throws -> (HTTPResponse.Status, JSONValue) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let response = try await execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0.encoded()) })
        return (response.status, try JSONValue.parse(Array(response.body.readableBytesView)))
    }

    /// A password-grant token request for a fixture user.
    func passwordToken(_ upn: String, scope: String = TestSupport.chatScope, claims: String? = nil, password: String = "Passw0rd!") async throws -> (HTTPResponse.Status, JSONValue) {
        var fields = [
            ("grant_type", "password"), ("client_id", "chatr"), ("username", upn), ("password", password),
            ("scope", scope), ("client_info", "1"),
        ]
        if let claims { fields.append(("claims", claims)) }
        return try await postForm("/contoso.com/oauth2/v2.0/token", fields)
    }
}

extension JSONValue {
    /// The unverified payload of a JWT string member.
    func jwtClaims(_ member: String) -> JSONValue? {
        self[member]?.stringValue.flatMap(JWT.unverifiedClaims(of:))
    }
}
