import HTTPTypes
import Hummingbird

/// Refuses admin requests that change state when a browser could have sent them from
/// another site (issue 41 point 6), so a page a tester opens cannot reset the mock, arm
/// faults or approve device codes behind their back.
///
/// `GET`, `HEAD` and `OPTIONS` pass. Any other method is refused when:
/// - its `Origin` names another authority than its `Host` (or is `null`): 403;
/// - its `Sec-Fetch-Site` is `cross-site` or `same-site`: 403;
/// - its body (a non-empty one) is of a type a cross-site HTML form or a simple `fetch` can
///   send without a CORS preflight (`text/plain`, `application/x-www-form-urlencoded`,
///   `multipart/form-data`): 415. The admin API reads JSON only.
///
/// curl, scripts and the daemon's harnesses send no `Origin`, so they are not affected.
///
/// Every admin request, reads included, is refused (403) when its `Host` does not name this
/// server (``Issuer/namesThisServer(_:)``): a page that rebinds its own name to 127.0.0.1
/// (DNS rebinding) sends a matching `Origin` and `Host`, both its own.
struct AdminCrossSiteGuard: RouterMiddleware {
    typealias Context = MockRequestContext

    /// Whether a `Host` names this server.
    let namesThisServer: @Sendable (String) -> Bool

    static let formTypes: Set<String> = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let host = HTTPField.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? request.head.headerFields[Self.host] ?? ""
        if !host.isEmpty, !namesThisServer(host) {
            throw AdminError(status: .forbidden, message: "refused: Host '\(host)' does not name this server (the admin API answers only its own names).")
        }
        if let refusal = Self.refusal(request.head) { throw refusal }
        return try await next(request, context)
    }

    /// Why `head` is refused, or nil when it may go on.
    static func refusal(_ head: HTTPRequest) -> AdminError? {
        guard ![.get, .head, .options].contains(head.method) else { return nil }
        if let origin = head.headerFields[.origin] {
            let host = head.authority ?? head.headerFields[Self.host] ?? ""
            guard let authority = authority(ofOrigin: origin), !host.isEmpty, authority == host.lowercased() else {
                return AdminError(status: .forbidden, message: "cross-site request refused: Origin '\(origin)' is not this server ('\(host)').")
            }
        }
        if let site = head.headerFields[secFetchSite]?.lowercased(), site == "cross-site" || site == "same-site" {
            return AdminError(status: .forbidden, message: "cross-site request refused (Sec-Fetch-Site: \(site)).")
        }
        // Only a body a browser's form would send (with a Content-Length) is refused for its
        // type: libcurl labels a bodiless POST `application/x-www-form-urlencoded`, and may
        // send it chunked; browsers send `Origin` with any POST anyway (checked above).
        let hasBody = head.declaredBodyLength.map { $0 > 0 } ?? false
        if hasBody, let type = head.headerFields[.contentType], formTypes.contains(mediaType(type)) {
            return AdminError(
                status: .unsupportedMediaType,
                message: "the admin API reads JSON: send 'Content-Type: application/json' (a '\(mediaType(type))' body could come from a cross-site form).")
        }
        return nil
    }

    /// `host[:port]` of a serialized origin (`scheme://host[:port]`), lower-cased; nil for `null` or junk.
    static func authority(ofOrigin origin: String) -> String? {
        guard let range = origin.range(of: "://") else { return nil }
        let rest = origin[range.upperBound...]
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return rest.lowercased()
    }

    static func mediaType(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }
}
