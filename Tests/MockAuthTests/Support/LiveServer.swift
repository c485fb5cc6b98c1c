import Foundation
import Hummingbird
import LocalServers
import Logging
import ServiceLifecycle
import Synchronization

@testable import MockAuth

/// Runs a real mockauth server in-process on 127.0.0.1, port 0, for the duration of `body`.
enum LiveServer {
    struct Running: Sendable {
        /// e.g. `https://127.0.0.1:40123`
        let url: String
        /// `cert.pem` of the self-signed certificate, for https servers.
        let certificatePath: String?
        let state: MockState
        /// Starts the server's graceful shutdown (the end of `body` waits for it to finish).
        let shutdown: @Sendable () async -> Void
        fileprivate let stoppedFlag: StoppedFlag
        /// True once the server has stopped (its graceful shutdown finished).
        var stopped: Bool { stoppedFlag.value.withLock { $0 } }
    }

    fileprivate final class StoppedFlag: Sendable {
        let value = Mutex(false)
    }

    static func run<Value: Sendable>(
        https: Bool,
        _ body: @Sendable (Running) async throws -> Value
    ) async throws -> Value {
        var certificatePath: String?
        var tls: MockAuthConfiguration.TLS?
        if https {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("mockauth-tls-\(UUID().uuidString)").path
            let generated = try SelfSignedCertificate.generate()
            certificatePath = try generated.write(to: directory)
            tls = .selfSigned(generated)
        }
        defer { if let certificatePath { try? FileManager.default.removeItem(atPath: (certificatePath as NSString).deletingLastPathComponent) } }
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let configuration = MockAuthConfiguration(fixtures: try TestSupport.fixtures(), tls: tls, signingKey: TestSupport.key)
        let (application, state) = try buildApplication(configuration, logger: TestSupport.logger) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: TestSupport.logger))
        let certificate = certificatePath
        let stopped = StoppedFlag()
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that fails to start ends the stream, so the wait below cannot hang.
                defer {
                    continuation.finish()
                    stopped.value.withLock { $0 = true }
                }
                try await group.run()
            }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else {
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                throw TestFailure("the server stopped before listening")
            }
            let running = Running(url: url, certificatePath: certificate, state: state, shutdown: { await group.triggerGracefulShutdown() }, stoppedFlag: stopped)
            return try await group.serving(&tasks) { try await body(running) }
        }
    }
}
