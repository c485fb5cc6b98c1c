import ConnectionCustody
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ProgramSupport

/// Builds the mockauth application: issuer, MAM service and admin API on one port.
///
/// - Parameters:
///   - configuration: where to listen, fixtures, TLS, signing key.
///   - state: serve this state instead of a new one built from the fixtures, e.g. one mock
///     on two listeners (http and https) sharing users, grants, enrollments and faults.
///   - logger: the server's logger (the library never bootstraps logging).
///   - onListening: called once with the real URL, e.g. `https://127.0.0.1:52731`.
/// - Returns: the application and its state (tests inspect and change the state directly).
public func buildApplication(
    _ configuration: MockAuthConfiguration,
    state sharedState: MockState? = nil,
    logger: Logger,
    onListening: @escaping @Sendable (String) async -> Void = { _ in }
) throws -> (application: some ApplicationProtocol, state: MockState) {
    let state = sharedState ?? MockState(fixtures: configuration.fixtures)
    let key = try configuration.signingKey ?? SigningKey.generate()
    let issuer = Issuer(state: state, key: key, scheme: configuration.scheme, publicURL: configuration.publicURL, logger: logger)
    let router = buildRouter(issuer: issuer, logger: logger)
    let serverName = "mockauth"
    // Each connection's handler runs on its own event loop (EventLoopPinnedChannel); token
    // requests are answered there in the pipeline (TokenFastLane), and so are requests that
    // are not HTTP (MalformedRequestAnswer). Answers written in the pipeline do not wait for
    // the socket, so a connection whose answers cannot leave is not read until they can
    // (BackPressureHandler); the router's answers wait on their own.
    // Connections set up while it stops are closed, never dropped (``ConnectionCustody``).
    let custody = ConnectionCustody()
    let server = HTTPServerBuilder.pinnedHTTP1(tls: try configuration.tlsConfiguration(), custody: custody) {
        [
            BackPressureHandler(), TokenFastLane(issuer: issuer, serverName: serverName, logger: logger),
            MalformedRequestAnswer(serverName: serverName, logger: logger),
        ]
    }
    let scheme = configuration.scheme
    let host = configuration.host
    // The whole run prefers an event loop too (LoopPinnedApplication): a new connection is
    // accepted and answered even while every thread of the cooperative pool is busy.
    let application = LoopPinnedApplication(base: Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(host, port: configuration.port), serverName: serverName),
        services: [custody],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            issuer.listening.set(host: host, port: port)
            await onListening("\(scheme)://\(ListeningAuthority.urlHost(host)):\(port)")
        },
        logger: logger))
    return (application, state)
}

/// The router with every route and middleware; `buildApplication` wraps it in a server.
func buildRouter(issuer: Issuer, logger: Logger) -> Router<MockRequestContext> {
    let router = Router(context: MockRequestContext.self)
    router.add(middleware: RequestLogMiddleware(state: issuer.state))
    router.add(middleware: FaultMiddleware(state: issuer.state))
    issuer.addDiscoveryRoutes(to: router)
    issuer.addAuthorizeRoutes(to: router)
    issuer.addTokenRoutes(to: router)
    issuer.addDeviceVerificationRoutes(to: router)
    issuer.addLogoutRoutes(to: router)
    issuer.addUserInfoRoutes(to: router)
    MAMService(issuer: issuer, logger: logger).addRoutes(to: router)
    AdminRoutes(state: issuer.state, namesThisServer: { [issuer] in issuer.namesThisServer($0) }).addRoutes(to: router)
    addOperationalRoutes(to: router, state: issuer.state)
    return router
}

/// `GET /metrics` (Prometheus text format, ``MockMetrics``) and `GET /health`; neither is faulted.
func addOperationalRoutes(to router: Router<MockRequestContext>, state: MockState) {
    router.get("/metrics") { _, _ in
        Response(
            status: .ok, headers: [.contentType: ProgramMetrics.contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: state.metrics.program.exposition())))
    }
    router.get("/health") { _, _ in
        Response.json(["status": "ok"])
    }
}
