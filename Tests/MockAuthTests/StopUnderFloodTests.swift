import Foundation
import ConnectionCustody
import Hummingbird
import LocalServers
import Logging
import ServiceLifecycle
import Testing

@testable import MockAuth

/// Each kind of in-process server stops while connections keep arriving, a thousand times over,
/// and never traps (issue 50). swift-nio hands a server connections it has accepted and set up;
/// one set up after the accept loop has ended was dropped unfinished, and the dropped
/// `NIOAsyncWriter` trapped the whole process ("Deinited NIOAsyncWriter without calling
/// finish()", apple/swift-nio#2813, #3481). ``ConnectionCustody`` closes such connections.
///
/// Rounds alternate between a graceful stop and a cancelled one. `STOP_FLOOD_ROUNDS` sets the
/// rounds (default 1000, one stop each).
@Suite("Stops under a flood of connections", .serialized)
struct StopUnderFloodTests {
    static let rounds = ProcessInfo.processInfo.environment["STOP_FLOOD_ROUNDS"].flatMap(Int.init) ?? 1000

    /// Quiet: a cancelled server logs its cancellation as an error, a thousand times.
    static let logger: Logger = {
        var logger = Logger(label: "stop-under-flood")
        logger.logLevel = .critical
        return logger
    }()

    @Test("mockauth over http")
    func mockauthHTTP() async throws {
        let fixtures = try TestSupport.fixtures()
        for round in 0..<Self.rounds {
            try await Self.floodWhileStopping(round.isMultiple(of: 2) ? .graceful : .cancelled) { onListening in
                try buildApplication(MockAuthConfiguration(fixtures: fixtures, signingKey: TestSupport.key), logger: Self.logger, onListening: onListening).application
            }
        }
    }

    @Test("mockauth over https")
    func mockauthHTTPS() async throws {
        let fixtures = try TestSupport.fixtures()
        let certificate = try SelfSignedCertificate.generate()
        for round in 0..<Self.rounds {
            try await Self.floodWhileStopping(round.isMultiple(of: 2) ? .graceful : .cancelled) { onListening in
                try buildApplication(
                    MockAuthConfiguration(fixtures: fixtures, tls: .selfSigned(certificate), signingKey: TestSupport.key), logger: Self.logger,
                    onListening: onListening
                ).application
            }
        }
    }

    @Test("a plain Hummingbird application with custody (the daemon's and the tests' servers)")
    func plainApplication() async throws {
        for round in 0..<Self.rounds {
            try await Self.floodWhileStopping(round.isMultiple(of: 2) ? .graceful : .cancelled) { onListening in
                let custody = ConnectionCustody()
                let router = Router()
                router.get("health") { _, _ in "ok" }
                return Application(
                    router: router, server: .http1(custody: custody), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    services: [custody],
                    onServerRunning: { channel in await onListening("http://127.0.0.1:\(channel.localAddress?.port ?? 0)") },
                    logger: Self.logger)
            }
        }
    }

    /// How a round stops its server.
    enum Stop: CaseIterable {
        /// A graceful shutdown (SIGTERM, the end of a test's body).
        case graceful
        /// Its task cancelled (a test that throws out of its task group, a time limit, a
        /// service group cancelling the rest when one service ends): this traps at once on a
        /// server without custody (measured on 023748d: in the first or second round).
        case cancelled
    }

    /// Starts the application `make` builds, floods it with connections, stops it (`stop`)
    /// while the flood goes on, and waits for the stop.
    static func floodWhileStopping<App: ApplicationProtocol>(
        _ stop: Stop, _ make: (@escaping @Sendable (String) async -> Void) throws -> App
    ) async throws {
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let application = try make { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: Self.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { continuation.finish() }
                try await group.run()
            }
            var iterator = urls.makeAsyncIterator()
            let url = try #require(await iterator.next(), "the server did not start")
            let port = try #require(URLComponents(string: url)?.port)
            let flood = ConnectionFlood(.loopback(port: port))
            _ = await flood.waitForConnections(8)
            switch stop {
            case .graceful: await group.triggerGracefulShutdown()
            case .cancelled: tasks.cancelAll()
            }
            try? await tasks.waitForAll()
            await flood.stop()
        }
    }
}
