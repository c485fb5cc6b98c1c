import NIOCore
import NIOHTTP1

/// Keeps what HTTP/1.0 means for a request once its version is gone (the HTTP types that
/// Hummingbird and ``TokenFastLane`` see carry none):
/// - an HTTP/1.0 request without `Connection: keep-alive` closes the connection after its
///   answer (RFC 9112 §9.3): it is passed on with `Connection: close`, so the answer is the
///   connection's last. Without it the connection stayed open and a client that reads to the
///   end of the stream, as HTTP/1.0 clients may, waited forever;
/// - its `Expect` header is dropped: a server MUST ignore a `100-continue` expectation in an
///   HTTP/1.0 request (RFC 9110 §10.1.1), so ``ContinueExpectation`` sends no `100`.
///
/// Sits right before the HTTP/1 to HTTP types codec (``EventLoopPinnedChannel``).
final class HTTP10Semantics: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0 else {
            return context.fireChannelRead(data)
        }
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
        head.headers.remove(name: "expect")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
