import Foundation
import HTTPTypes
import HummingbirdCore

/// `Expect: 100-continue` (RFC 9110 §10.1.1): the client sends a request's head and waits for
/// an interim `100 Continue` before it sends the body. Hummingbird never sends one, so such a
/// client waits its own timeout (curl: 1 s, and curl 7.x asks for bodies over 1 KiB) first.
///
/// mockauth answers the expectation when the router starts on the request: by then every
/// earlier request of the connection has been answered (Hummingbird answers one at a time, and
/// ``TokenFastLane`` takes no request while the router owes one), so the `100` comes in order.
/// The route then reads the body and answers as always. A request whose `Content-Length` is
/// over ``MockAuthLimits/maxRequestBodyBytes`` gets no `100`: its final answer is the `413`
/// (RFC 9110 allows a final status instead of `100`), and the client need not send the body. Other expectations are ignored, and so is any in an
/// HTTP/1.0 request (``HTTP10Semantics`` drops its `Expect`).
enum ContinueExpectation {
    /// `responder`, sending `100 Continue` first when the request expects it.
    static func answering(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        { request, writer, channel in
            // A body the route will refuse unread gets no 100: the 413 is the final answer.
            if expectsContinue(request.head), !Request.declaresTooLargeBody(request.head) {
                try await writer.writeInformationalHead(HTTPResponse(status: .continue))
            }
            try await responder(request, writer, channel)
        }
    }

    /// True when `head` carries the `100-continue` expectation (the token is case-insensitive).
    static func expectsContinue(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .expect].contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue" }
    }
}
