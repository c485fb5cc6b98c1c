import Foundation
import Logging
import MockAuth
import ServiceLifecycle

/// A real mockauth (issuer + MAM service) on 127.0.0.1, port 0, in-process for `body`.
public enum InProcessMockAuth {
    public struct Running: Sendable {
        /// e.g. `http://127.0.0.1:40123`
        public let url: String
        public let state: MockState
        public var authority: String { "\(url)/contoso.com" }
        public var mamURL: String { "\(url)/mam/v1" }
    }

    public static let signingKey: SigningKey = {
        do { return try SigningKey.generate() } catch { fatalError("cannot generate a signing key: \(error)") }
    }()

    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let fixturesPath = packageRoot.appendingPathComponent("mocks/fixtures/contoso.json").path

    /// Runs `body` with a started mock; `prepare` may change the fixtures first (e.g. add users).
    public static func run<Value: Sendable>(
        prepare: (inout Fixtures) -> Void = { _ in }, _ body: @Sendable (Running) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "mockauth.in-process")
        logger.logLevel = .error
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        var fixtures = try Fixtures.load(path: fixturesPath)
        prepare(&fixtures)
        let configuration = MockAuthConfiguration(fixtures: fixtures, signingKey: signingKey)
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
