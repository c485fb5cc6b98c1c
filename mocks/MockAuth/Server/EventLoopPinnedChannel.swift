import ConnectionCustody
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Wraps a Hummingbird child channel so that each connection's handler task prefers the
/// connection's own event loop as its task executor (``EventLoopTaskExecutor``).
///
/// Setup is the wrapped channel's, with ``HTTP10Semantics`` before its HTTP/1 to HTTP types
/// codec; where `handle` runs changes.
struct EventLoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTP10Semantics(), position: .before(try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        let executor = EventLoopTaskExecutor(value.channel.eventLoop)
        await withTaskExecutorPreference(executor) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 (over TLS when `tls` is given), each connection served on its own event loop:
    /// how mockauth serves, and the issuance benchmark's Hummingbird ceiling with it.
    /// `handlers` makes each connection's channel handlers that see the HTTP parts before
    /// Hummingbird does (mockauth's ``TokenFastLane``).
    ///
    /// A request with `Expect: 100-continue` gets its interim `100 Continue` when its handler
    /// starts, where Hummingbird sends none and the client would wait its timeout (curl: 1 s)
    /// before sending the body (``ContinueExpectation``).
    ///
    /// Its connections are held by `custody` until handled, so a stop never traps on one set up
    /// too late: give the application `custody` as a service too (``ConnectionCustody``).
    public static func pinnedHTTP1(
        tls: TLSConfiguration? = nil, custody: ConnectionCustody, handlers: @escaping @Sendable () -> [any RemovableChannelHandler] = { [] }
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let http = HTTP1Channel(
                responder: ContinueExpectation.answering(responder), configuration: .init(additionalChannelHandlers: handlers()))
            guard let tls else { return CustodyChannel(EventLoopPinnedChannel(base: http), custody: custody) }
            return CustodyChannel(EventLoopPinnedChannel(base: try TLSChannel(http, tlsConfiguration: tls)), custody: custody)
        }
    }
}
