/// An HTTP method.
public struct HTTPClientMethod: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPClientMethod(rawValue: "GET")
    public static let post = HTTPClientMethod(rawValue: "POST")
    public static let put = HTTPClientMethod(rawValue: "PUT")
    public static let delete = HTTPClientMethod(rawValue: "DELETE")
    public static let patch = HTTPClientMethod(rawValue: "PATCH")
    public static let head = HTTPClientMethod(rawValue: "HEAD")

    public var description: String { rawValue }
}

/// One request: method, absolute URL, headers and an optional body.
///
/// Its `description` names method and URL without query; headers and body are never printed
/// (they carry tokens and passwords).
public struct HTTPClientRequest: Sendable, CustomStringConvertible {
    public var method: HTTPClientMethod
    /// Absolute `http://` or `https://` URL. With a unix-socket client the host part only
    /// fills the `Host` header.
    public var url: String
    public var headers: HTTPClientHeaders
    public var body: [UInt8]?
    /// Overrides the client's total timeout for this request.
    public var timeout: Duration?

    public init(method: HTTPClientMethod = .get, url: String, headers: HTTPClientHeaders = [:], body: [UInt8]? = nil, timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A POST with an `application/x-www-form-urlencoded` body of `fields` in order.
    public static func form(url: String, fields: [(String, String)], headers: HTTPClientHeaders = [:]) -> HTTPClientRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return HTTPClientRequest(method: .post, url: url, headers: headers, body: Array(FormEncoding.encode(fields).utf8))
    }

    /// A request with a JSON body (the bytes are taken as given) and the JSON content type.
    public static func json(method: HTTPClientMethod = .post, url: String, body: [UInt8], headers: HTTPClientHeaders = [:]) -> HTTPClientRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPClientRequest(method: method, url: url, headers: headers, body: body)
    }

    /// The URL without query, fragment or user information (`user:password@` shows as
    /// `***@`): safe to show in logs and errors.
    public var redactedURL: String { Self.redact(url) }

    public var description: String { "\(method) \(redactedURL)" }

    static func redact(_ url: String) -> String {
        URLRedaction.hidingUserInfo(String(url.prefix { $0 != "?" && $0 != "#" }))
    }
}
