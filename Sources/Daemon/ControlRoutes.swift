import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Logging
import NIOCore
import Orchestrator

/// The daemon's control API over the engine: JSON over HTTP (Sources/complianced/README.md),
/// one route group per feature (`Routes/`, each adding itself with `addRoutes(to:)`). Every
/// route reaches the daemon's state through the ``Engine``; errors become answers in one
/// place (``ControlErrorMiddleware``).
public struct ControlRoutes: Sendable {
    let engine: Engine
    let testHooks: Bool
    let logger: Logger

    public init(engine: Engine, testHooks: Bool, logger: Logger) {
        self.engine = engine
        self.testHooks = testHooks
        self.logger = logger
    }

    /// A router with every route, answering only peers running as the daemon's own user, and
    /// never a web page (``BrowserGuardMiddleware``).
    public func router() -> Router<ControlRequestContext> {
        router(peerUID: { await PeerIdentity.uid(of: $0) })
    }

    /// ``router()`` with the peer's uid asked of `peerUID` (tests: a router without sockets
    /// has no peer for the kernel to name).
    func router(peerUID: @escaping @Sendable (any Channel) async -> uid_t?) -> Router<ControlRequestContext> {
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: ControlErrorMiddleware(logger: logger))
        router.add(middleware: PeerCheckMiddleware(ownUID: geteuid(), logger: logger, lookup: peerUID))
        router.add(middleware: BrowserGuardMiddleware())
        DaemonRoutes(engine: engine).addRoutes(to: router)
        AccountRoutes(engine: engine).addRoutes(to: router)
        AppRoutes(engine: engine).addRoutes(to: router)
        DataRoutes(engine: engine).addRoutes(to: router)
        ProtectionRoutes(engine: engine).addRoutes(to: router)
        SettingsRoutes(engine: engine).addRoutes(to: router)
        IdentityRoutes(engine: engine).addRoutes(to: router)
        WebContentRoutes(engine: engine).addRoutes(to: router)
        InteractionRoutes(engine: engine).addRoutes(to: router)
        if testHooks { TestHookRoutes(engine: engine).addRoutes(to: router) }
        return router
    }
}

extension Response {
    /// A JSON answer, never cached.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.encoded())))
    }
}
