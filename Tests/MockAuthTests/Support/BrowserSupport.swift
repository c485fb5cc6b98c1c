import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore

@testable import MockAuth

/// Plays the user's browser against the authorize endpoint in router tests.
struct Browser {
    let client: any TestClientProtocol

    static let verifier = "dBjftJeZ4CVP-mJ92K9X5_tl3Cx6vO0J7qzE4Yb2mZ8aQpL"
    static var challenge: String { Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) }

    static func authorizeQuery(
        redirect: String = "http://localhost:5555", loginHint: String? = nil, claims: String? = nil,
        scope: String = TestSupport.chatScope, extra: [(String, String)] = []
    ) -> String {
        var pairs = [
            ("client_id", "chatr"), ("response_type", "code"), ("redirect_uri", redirect),
            ("scope", scope), ("state", "state-123"), ("nonce", "nonce-456"),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if let loginHint { pairs.append(("login_hint", loginHint)) }
        if let claims { pairs.append(("claims", claims)) }
        return FormParameters.encode(pairs + extra)
    }

    /// The inputs of the page's forms: (form count, [name: value]).
    static func inputs(of page: String) -> (forms: Int, fields: [String: String]) {
        let forms = page.components(separatedBy: "<form").count - 1
        var fields: [String: String] = [:]
        for match in page.matches(of: /<input type="(\w+)" name="([^"]+)" value="([^"]*)"/) {
            fields[String(match.output.2)] = unescape(String(match.output.3))
        }
        return (forms, fields)
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// GET the page, fill in the form, POST it; returns the response to the POST.
    func signIn(query: String, login: String, password: String = "Passw0rd!", extra: [(String, String)] = []) async throws -> TestResponse {
        let page = try await client.execute(uri: "/contoso.com/oauth2/v2.0/authorize?" + query, method: .get)
        var fields = Self.inputs(of: String(buffer: page.body)).fields
        fields["login"] = login
        fields["passwd"] = password
        let pairs = fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + extra
        return try await client.execute(
            uri: "/contoso.com/oauth2/v2.0/authorize", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: FormParameters.encode(pairs)))
    }

    /// The query parameters of a 302's Location.
    static func redirectParameters(_ response: TestResponse) throws -> FormParameters {
        let location = response.headers[.location] ?? ""
        let query = location.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        return try FormParameters.parse(query)
    }

    /// Signs in and returns the issued code.
    func code(login: String, claims: String? = nil) async throws -> String {
        let response = try await signIn(query: Self.authorizeQuery(claims: claims), login: login)
        guard let code = try Self.redirectParameters(response)["code"] else {
            throw TestFailure("no code in \(response.headers[.location] ?? "no Location")")
        }
        return code
    }

    /// Redeems a code at the token endpoint.
    func redeem(_ code: String, verifier: String = Browser.verifier, claims: String? = nil) async throws -> (HTTPResponse.Status, JSONValue) {
        var fields = [
            ("grant_type", "authorization_code"), ("client_id", "chatr"), ("code", code),
            ("redirect_uri", "http://localhost:5555"), ("code_verifier", verifier), ("client_info", "1"),
            ("scope", TestSupport.chatScope),
        ]
        if let claims { fields.append(("claims", claims)) }
        return try await client.postForm("/contoso.com/oauth2/v2.0/token", fields)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
