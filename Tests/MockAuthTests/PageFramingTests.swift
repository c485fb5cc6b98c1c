import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// Issue 41 point 6: pages are never framed; admin changes refuse cross-site requests.
@Suite("Page framing and admin cross-site requests")
struct PageFramingTests {
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    @Test("sign-in, error, device, logout and admin pages send X-Frame-Options DENY and frame-ancestors 'none'")
    func pagesRefuseFraming() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let pages = [
                "/contoso.com/oauth2/v2.0/authorize?" + Browser.authorizeQuery(),
                "/contoso.com/oauth2/v2.0/authorize?client_id=nobody",
                "/contoso.com/oauth2/v2.0/deviceauth",
                "/contoso.com/oauth2/v2.0/logout",
                "/_admin/ui",
            ]
            for uri in pages {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(uri)")
                #expect(response.headers[Self.frameOptions] == "DENY", "\(uri)")
                #expect(response.headers[.contentSecurityPolicy] == "frame-ancestors 'none'", "\(uri)")
            }
        }
    }

    @Test("an admin change from another origin, a form type or Sec-Fetch-Site cross-site is refused; same origin passes")
    func adminRefusesCrossSite() async throws {
        try await TestSupport.withRouterApp { client, state in
            let json: HTTPFields = [.contentType: "application/json"]  // the router test client's authority is "localhost"
            let refused: [(HTTPFields, HTTPResponse.Status)] = [
                (json + [.origin: "http://evil.example"], .forbidden),
                (json + [.origin: "http://localhost:8081"], .forbidden),
                (json + [.origin: "null"], .forbidden),
                (json + [.origin: "http://localhost/path"], .forbidden),
                (json + [PageFramingTests.secFetchSite: "cross-site"], .forbidden),
                ([.contentType: "text/plain"], .unsupportedMediaType),
                ([.contentType: "application/x-www-form-urlencoded; charset=utf-8"], .unsupportedMediaType),
                ([.contentType: "Multipart/Form-Data; boundary=x"], .unsupportedMediaType),
            ]
            for (headers, status) in refused {
                let response = try await client.execute(
                    uri: "/_admin/users/bob@contoso.com/ca", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"targeted":true}"#))
                #expect(response.status == status, "\(headers)")
                let body = try JSONValue.parse(Array(response.body.readableBytesView))
                #expect(body["error_description"]?.stringValue?.isEmpty == false)
            }
            #expect(state.directory.user(upn: "bob@contoso.com")?.caTargeted == false)
            let same = try await client.execute(
                uri: "/_admin/users/bob@contoso.com/ca", method: .post,
                headers: json + [.origin: "http://LocalHost", PageFramingTests.secFetchSite: "same-origin"],
                body: ByteBuffer(string: #"{"targeted":true}"#))
            #expect(same.status == .ok, "\(String(buffer: same.body))")
            #expect(state.directory.user(upn: "bob@contoso.com")?.caTargeted == true)
            // Reads stay open to a browser, and a bodiless POST without Origin (curl -X POST) passes.
            let read = try await client.execute(uri: "/_admin/state", method: .get, headers: [.origin: "http://evil.example"])
            #expect(read.status == .ok)
            let reset = try await client.execute(uri: "/_admin/reset", method: .post)
            #expect(reset.status == .ok)
            // libcurl labels a bodiless POST as a form: an empty body passes whatever its type.
            let curlReset = try await client.execute(
                uri: "/_admin/reset", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .contentLength: "0"])
            #expect(curlReset.status == .ok)
        }
    }

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
