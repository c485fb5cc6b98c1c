/// An HTTP method.
public struct HTTPMethod: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let head = HTTPMethod(rawValue: "HEAD")

    public var description: String { rawValue }
}

/// One request: method, absolute URL, headers and an optional body.
///
/// Its `description` names method and URL without query; headers and body are never printed
/// (they carry tokens and passwords).
public struct HTTPRequest: Sendable, CustomStringConvertible {
    public var method: HTTPMethod
    /// Absolute `http://` or `https://` URL. With a unix-socket client the host part only
    /// fills the `Host` header.
    public var url: String
    public var headers: HTTPHeaders
    public var body: [UInt8]?
    /// Overrides the client's total timeout for this request.
    public var timeout: Duration?

    public init(method: HTTPMethod = .get, url: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil, timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A POST with an `application/x-www-form-urlencoded` body of `fields` in order.
    public static func form(url: String, fields: [(String, String)], headers: HTTPHeaders = [:]) -> HTTPRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return HTTPRequest(method: .post, url: url, headers: headers, body: Array(FormEncoding.encode(fields).utf8))
    }

    /// A request with a JSON body (the bytes are taken as given) and the JSON content type.
    public static func json(method: HTTPMethod = .post, url: String, body: [UInt8], headers: HTTPHeaders = [:]) -> HTTPRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }

    /// The URL without query or fragment: safe to show in logs and errors.
    public var redactedURL: String { Self.redact(url) }

    public var description: String { "\(method) \(redactedURL)" }

    static func redact(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}
