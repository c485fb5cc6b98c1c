import HummingbirdCore
import Logging
import NIOCore

/// Wraps a Hummingbird child channel so that each connection's handler task prefers the
/// connection's own event loop as its task executor (``EventLoopTaskExecutor``).
///
/// Setup is the wrapped channel's; only where `handle` runs changes. Public for the issuance
/// benchmark's Hummingbird ceiling, which serves the same way.
public struct EventLoopPinnedChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base

    public init(base: Base) {
        self.base = base
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    public func handle(value: Value, logger: Logger) async {
        let executor = EventLoopTaskExecutor(value.channel.eventLoop)
        await withTaskExecutorPreference(executor) {
            await base.handle(value: value, logger: logger)
        }
    }
}
