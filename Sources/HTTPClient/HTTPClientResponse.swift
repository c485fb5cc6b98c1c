import Foundation

/// A complete HTTP response.
public struct HTTPClientResponse: Sendable {
    /// The status code of the final response (after any followed redirect).
    public let status: Int
    public let headers: HTTPClientHeaders
    public let body: [UInt8]
    /// New connections libcurl opened for this request (0 when a kept-alive one was reused).
    public let connectCount: Int

    public init(status: Int, headers: HTTPClientHeaders, body: [UInt8], connectCount: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.connectCount = connectCount
    }

    /// The body as UTF-8 text (invalid sequences replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// How long the server asked to wait, from `Retry-After` (delay-seconds or an HTTP-date
    /// relative to `now`); nil when absent or unparseable. A date in the past gives zero.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"] else { return nil }
        return RetryAfter.parse(value, now: now)
    }
}

/// Parsing of the `Retry-After` header (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// `"120"` → 120 s; `"Wed, 21 Oct 2015 07:28:00 GMT"` → the time until then from `now`.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            return Int64(trimmed).map { .seconds($0) }
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                let seconds = max(0, date.timeIntervalSince(now))
                return .milliseconds(Int64(seconds * 1000))
            }
        }
        return nil
    }
}
