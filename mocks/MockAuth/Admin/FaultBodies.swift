import HTTPTypes
import Hummingbird
import NIOCore

/// Answers of the faults that shape a body: `truncated`, `wrongContentType`, `oversized`.
enum FaultBodies {
    /// A token-shaped JSON body announced in full (Content-Length), half of it sent, then the
    /// connection closed.
    static func truncated(status: HTTPResponse.Status, channel: any Channel) -> Response {
        let full = ByteBuffer(string: #"{"token_type":"Bearer","expires_in":3600,"access_token":"eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.truncated"}"#)
        let half = full.getSlice(at: 0, length: full.readableBytes / 2) ?? full
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(contentLength: full.readableBytes) { writer in
                try await writer.write(half)
                try await Task.sleep(for: .milliseconds(20))
                try? await channel.close()
            })
    }

    /// The route's own answer, labelled `text/html` (its bytes unchanged).
    static func wrongContentType(_ response: Response) -> Response {
        var response = response
        response.headers[.contentType] = "text/html; charset=utf-8"
        return response
    }

    /// The route's own answer followed by white space up to `totalBytes`: a JSON body stays
    /// valid JSON, it is only bigger than a client may accept.
    static func oversized(_ response: Response, totalBytes: Int) -> Response {
        var response = response
        let original = response.body
        let padding = max(0, totalBytes - (original.contentLength ?? 0))
        let length = original.contentLength.map { $0 + padding }
        response.body = ResponseBody(contentLength: length) { writer in
            try await original.write(PaddingWriter(parent: writer, padding: padding))
        }
        return response
    }
}

/// Passes the body through, then writes `padding` spaces before finishing.
private struct PaddingWriter: ResponseBodyWriter {
    var parent: any ResponseBodyWriter
    let padding: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await parent.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        var remaining = padding
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: min(remaining, 64 << 10))
        while remaining > 0 {
            let size = min(remaining, chunk.readableBytes)
            try await parent.write(chunk.getSlice(at: 0, length: size) ?? chunk)
            remaining -= size
        }
        try await parent.finish(trailingHeaders)
    }
}
