import NIOCore
import NIOHTTP1

/// Keeps what HTTP/1.0 means for a request once its version is gone (the HTTP types that
/// Hummingbird and ``TokenFastLane`` see carry none):
/// - an HTTP/1.0 request without `Connection: keep-alive` closes the connection after its
///   answer (RFC 9112 §9.3): it is passed on with `Connection: close`, so the answer is the
///   connection's last. Without it the connection stayed open and a client that reads to the
///   end of the stream, as HTTP/1.0 clients may, waited forever;
/// - so does one with `Transfer-Encoding` (faulty framing in HTTP/1.0, RFC 9112 §6.1);
/// - one with `Connection: keep-alive` gets `Connection: keep-alive` in its answer, which an
///   HTTP/1.0 client needs to keep the connection (ApacheBench's `ab -k` otherwise waits for
///   the close);
/// - its `Expect` header is dropped: a server MUST ignore a `100-continue` expectation in an
///   HTTP/1.0 request (RFC 9110 §10.1.1), so ``ContinueExpectation`` sends no `100`.
///
/// Sits right before the HTTP/1 to HTTP types codec (``EventLoopPinnedChannel``), so it sees
/// every answer of the connection, in the order of the requests.
final class HTTP10Semantics: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request not answered yet, oldest first: is it HTTP/1.0 with keep-alive?
    private var keepAlive10 = CircularBuffer<Bool>()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        guard head.version == .http1_0 else {
            keepAlive10.append(false)
            return context.fireChannelRead(data)
        }
        // An HTTP/1.0 message with Transfer-Encoding is faulty framing: its connection closes
        // after it (RFC 9112 §6.1).
        let keepAlive = head.isKeepAlive && !head.headers.contains(name: "transfer-encoding")
        keepAlive10.append(keepAlive)
        if !keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
        head.headers.remove(name: "expect")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A final answer's head answers the oldest request; an interim one (100) does not.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 || head.status.code == 101,
            let keepAlive = keepAlive10.popFirst()
        else { return context.write(data, promise: promise) }
        guard keepAlive, !head.headers.contains(name: "connection") else { return context.write(data, promise: promise) }
        head.headers.add(name: "connection", value: "keep-alive")
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
