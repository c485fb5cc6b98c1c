import Foundation
import Logging
import MockAuth
import ServiceLifecycle

/// A real mockauth (issuer + MAM service) on 127.0.0.1, port 0, in-process for `body`.
enum InProcessMockAuth {
    struct Running: Sendable {
        /// e.g. `http://127.0.0.1:40123`
        let url: String
        let state: MockState
        var authority: String { "\(url)/contoso.com" }
        var mamURL: String { "\(url)/mam/v1" }
    }

    static let signingKey: SigningKey = {
        do { return try SigningKey.generate() } catch { fatalError("cannot generate a signing key: \(error)") }
    }()

    static let fixturesPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("mocks/fixtures/contoso.json").path

    static func run<Value: Sendable>(_ body: @Sendable (Running) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "mockauth.in-process")
        logger.logLevel = .error
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let configuration = MockAuthConfiguration(fixtures: try Fixtures.load(path: fixturesPath), signingKey: signingKey)
        let (application, state) = try buildApplication(configuration, logger: logger) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else {
                await group.triggerGracefulShutdown()
                throw CancellationError()
            }
            do {
                let value = try await body(Running(url: url, state: state))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return value
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}
