import HTTPTypes
import Hummingbird
import JSON
import NIOCore

/// The headers of every JSON answer, built once.
private let jsonHeaders: HTTPFields = [
    .contentType: "application/json; charset=utf-8",
    .cacheControl: "no-store, no-cache",
    HTTPField.Name("Pragma")!: "no-cache",
]

extension HTTPFields {
    /// The headers of every JSON answer (type, never cached), then `extra`.
    static func json(adding extra: HTTPFields = [:]) -> HTTPFields {
        var headers = jsonHeaders
        headers.append(contentsOf: extra)
        return headers
    }
}

extension Response {
    /// A JSON response encoded with our `JSON` module; never cached, as token responses must not be.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        Response(status: status, headers: .json(adding: extra), body: .init(byteBuffer: ByteBuffer(bytes: value.encoded())))
    }

    /// An HTML page. Never framed (`X-Frame-Options: DENY`, CSP `frame-ancestors 'none'`), as
    /// Entra's pages are, so a page that frames the sign-in (clickjacking) fails against the mock too.
    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: htmlHeaders, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The headers of every HTML page.
    static let htmlHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
        HTTPField.Name("X-Frame-Options")!: "DENY", .contentSecurityPolicy: "frame-ancestors 'none'",
    ]

    /// A 302 to `location`.
    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}

extension Request {
    /// The body, at most ``MockAuthLimits/maxRequestBodyBytes``; larger → 413 ``OAuthError``,
    /// at once when the `Content-Length` says so (nothing of the body is read).
    mutating func boundedBody() async throws -> [UInt8] {
        if Self.declaresTooLargeBody(head) { throw OAuthError.tooLarge }
        do {
            let buffer = try await body.collect(upTo: MockAuthLimits.maxRequestBodyBytes)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw OAuthError.tooLarge
        }
    }

    /// True when `head`'s `Content-Length` is over ``MockAuthLimits/maxRequestBodyBytes``.
    static func declaresTooLargeBody(_ head: HTTPRequest) -> Bool {
        head.declaredBodyLength.map { $0 > MockAuthLimits.maxRequestBodyBytes } ?? false
    }

    /// The body parsed as a form (`application/x-www-form-urlencoded`).
    mutating func formBody() async throws -> FormParameters {
        try FormParameters.parse(body: try await boundedBody())
    }

    /// The query string's parameters.
    var queryParameters: FormParameters {
        get throws(OAuthError) { try FormParameters.parse(uri.query ?? "", source: "The query string") }
    }
}

extension HTTPRequest {
    /// The `Content-Length`, when the request has one that is a number.
    var declaredBodyLength: Int? { headerFields[.contentLength].flatMap(Int.init) }
}
