import HummingbirdCore
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
