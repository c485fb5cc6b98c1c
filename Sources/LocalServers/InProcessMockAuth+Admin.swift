import HTTPClient
import JSON

extension InProcessMockAuth.Running {
    /// A JSON request to the mock's admin API (`/_admin/…`, mocks/README.md); returns the
    /// answer's JSON. Throws unless the answer is 2xx.
    @discardableResult
    public func admin(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        let url = url + "/_admin/" + path
        var request = body.map { HTTPClientRequest.json(url: url, body: $0.encoded()) } ?? HTTPClientRequest(url: url)
        request.method = method
        let response = try await InProcessMockAuth.adminHTTP.execute(request)
        guard (200..<300).contains(response.status) else {
            throw InProcessMockAuth.AdminError(description: "admin \(method) \(path) answered HTTP \(response.status): \(response.bodyText)")
        }
        return response.body.isEmpty ? .null : try JSONValue.parse(response.body)
    }
}

extension InProcessMockAuth {
    static let adminHTTP = HTTPClient()

    /// The mock's admin API refused a request.
    public struct AdminError: Error, CustomStringConvertible {
        public let description: String
    }
}
