import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore

/// Wraps a Hummingbird child channel so that each connection's handler task prefers the
/// connection's own event loop as its task executor (``EventLoopTaskExecutor``).
///
/// Setup is the wrapped channel's; only where `handle` runs changes.
struct EventLoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
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
    public static func pinnedHTTP1(tls: TLSConfiguration? = nil) -> HTTPServerBuilder {
        guard let tls else {
            return HTTPServerBuilder { responder in EventLoopPinnedChannel(base: HTTP1Channel(responder: responder)) }
        }
        return HTTPServerBuilder { responder in
            EventLoopPinnedChannel(base: try TLSChannel(HTTP1Channel(responder: responder), tlsConfiguration: tls))
        }
    }
}
