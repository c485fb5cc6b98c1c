import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// An application whose whole run prefers one NIO event loop as its task executor
/// (``EventLoopTaskExecutor``): the accept loop and the task it starts for each connection
/// never wait for a thread of Swift's cooperative pool.
///
/// Without it each new connection's task starts on the pool before ``EventLoopPinnedChannel``
/// moves it to the connection's loop, so code that blocks every pool thread (a test or a
/// caller doing synchronous work there) leaves new connections unanswered until it ends.
/// Everything else is the wrapped application's.
struct LoopPinnedApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    let base: Base

    var responder: Base.Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
    }

    /// Runs the wrapped application with every task it starts preferring one event loop.
    func run() async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(base.eventLoopGroup.any())) {
            try await base.run()
        }
    }
}
