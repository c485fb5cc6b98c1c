import Foundation
import HTTPTypes
import JSON
import NIOCore
import NIOHTTPTypes

/// A JSON answer written from a handler in a connection's pipeline (``TokenFastLane``,
/// ``MalformedRequestAnswer``), with the headers the router's JSON answers carry and the two
/// Hummingbird adds (`Date`, `Server`).
enum PipelineJSONAnswer {
    /// Writes and flushes `value` as the whole answer; `closing` adds `Connection: close` (the
    /// caller closes the channel). `promise` completes with the write of the answer's end.
    static func write(
        _ value: JSONValue, status: HTTPResponse.Status, date: String, serverName: String, closing: Bool = false,
        context: ChannelHandlerContext, promise: EventLoopPromise<Void>? = nil
    ) {
        let bytes = ByteBuffer(bytes: value.encoded())
        var headers = HTTPFields.json()
        headers[.contentLength] = String(bytes.readableBytes)
        if closing { headers[.connection] = "close" }
        headers[.date] = date
        headers[.server] = serverName
        context.write(NIOAny(HTTPResponsePart.head(HTTPResponse(status: status, headerFields: headers))), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(bytes)), promise: nil)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil)), promise: promise)
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `epochSeconds`.
    static func imfFixdate(epochSeconds: Int) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
