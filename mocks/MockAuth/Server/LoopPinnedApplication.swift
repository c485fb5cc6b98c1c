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
/// Everything else is the wrapped application's. Test servers use it too (HTTPClientTests'
/// `LocalServer`), with ``HTTPServerBuilder/pinnedHTTP1(tls:handlers:)``.
public struct LoopPinnedApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    public let base: Base

    public init(base: Base) {
        self.base = base
    }

    public var responder: Base.Responder { get async throws { try await base.responder } }
    public var server: HTTPServerBuilder { base.server }
    public var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    public var configuration: ApplicationConfiguration { base.configuration }
    public var logger: Logger { base.logger }
    public var services: [any Service] { base.services }
    public var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable public func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
    }

    /// Runs the wrapped application with every task it starts preferring one event loop.
    public func run() async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(base.eventLoopGroup.any())) {
            try await base.run()
        }
    }
}
