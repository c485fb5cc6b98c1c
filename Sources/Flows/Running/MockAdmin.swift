import HTTPClient
import JSON

/// The mock's admin API (`/_admin/…` on mockauth; mocks/README.md), for admin steps and the
/// request log.
public struct MockAdmin: Sendable {
    /// The mock's origin, e.g. `http://127.0.0.1:40123`.
    public let origin: String
    private let http: HTTPClient

    public init(origin: String, caFile: String? = nil) {
        self.origin = origin
        var configuration = HTTPClientConfiguration()
        configuration.totalTimeout = .seconds(30)
        configuration.caFile = caFile
        configuration.maxResponseBytes = 64 << 20
        http = HTTPClient(configuration: configuration)
    }

    /// The origin (`scheme://host:port`) of an authority URL such as `http://127.0.0.1:8080/contoso.com`.
    public static func origin(ofAuthority authority: String) -> String? {
        guard let schemeEnd = authority.range(of: "://") else { return nil }
        let rest = authority[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" }
        guard !host.isEmpty else { return nil }
        return String(authority[..<schemeEnd.upperBound]) + host
    }

    /// `method /_admin/path` with an optional JSON body; throws with the status and body
    /// unless the answer is 2xx.
    @discardableResult
    public func call(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws(MockAdminError) -> JSONValue {
        let url = origin + "/_admin/" + path
        var request = body.map { HTTPClientRequest.json(url: url, body: $0.encoded()) } ?? HTTPClientRequest(url: url)
        request.method = HTTPClientMethod(rawValue: method)
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request)
        } catch {
            throw MockAdminError(message: "cannot reach the mock's admin API at \(URLRedaction.hidingUserInfo(origin)): \(error.message)")
        }
        guard (200..<300).contains(response.status) else {
            let hint = response.status == 404 && path == "reset" ? " (is it a mockauth? other servers have no admin API)" : ""
            throw MockAdminError(message: "\(method) /_admin/\(path) answered HTTP \(response.status)\(hint): \(response.bodyText.prefix(300))")
        }
        return response.body.isEmpty ? .null : ((try? JSONValue.parse(response.body)) ?? .null)
    }

    /// The requests the mock saw (secrets redacted by the mock), oldest first.
    public func requests() async throws(MockAdminError) -> [JSONValue] {
        let answer = try await call("GET", "requests")
        return answer["requests"]?.arrayValue ?? answer.arrayValue ?? []
    }
}

/// An admin call that failed.
public struct MockAdminError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
