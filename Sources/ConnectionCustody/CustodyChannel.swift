import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A server's child channel whose connections are held by a ``ConnectionCustody`` from the
/// moment they are set up until the server hands them to `handle`; setup and handling are the
/// wrapped channel's.
public struct CustodyChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base
    let custody: ConnectionCustody

    public init(_ base: Base, custody: ConnectionCustody) {
        self.base = base
        self.custody = custody
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).map { [custody] value in
            custody.hold(value)
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        custody.release(value)
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// Hummingbird's HTTP/1.1 server whose connections are held by `custody` until handled, so
    /// that a stop never traps on a connection set up too late. Give the application `custody`
    /// as a service too (``ConnectionCustody``).
    public static func http1(custody: ConnectionCustody, configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            CustodyChannel(HTTP1Channel(responder: responder, configuration: configuration), custody: custody)
        }
    }
}
