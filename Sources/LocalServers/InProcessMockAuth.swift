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
        /// With `tls: true`: the same mock (one state) also on https, e.g. `https://127.0.0.1:40125`,
        /// with a self-signed certificate nobody trusts unless given ``caFile``.
        public let tlsURL: String?
        /// The PEM file of that certificate.
        public let caFile: String?
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

    /// Runs `body` against a mock built from `fixtures` (default: the demo tenant), which
    /// `prepare` may change first (e.g. add users); with `tls`, the mock also listens on https.
    public static func run<Value: Sendable>(
        fixtures: Fixtures? = nil, tls: Bool = false, prepare: (inout Fixtures) -> Void = { _ in },
        _ body: @Sendable (Running) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "mockauth.in-process")
        logger.logLevel = .error
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        var chosen = try fixtures ?? Fixtures.load(path: fixturesPath)
        prepare(&chosen)
        let configuration = MockAuthConfiguration(fixtures: chosen, signingKey: signingKey)
        let (application, state) = try buildApplication(configuration, logger: logger) { continuation.yield($0) }
        var services: [any Service] = [application]
        var caFile: String?
        if tls {
            let certificate = try SelfSignedCertificate.generate()
            let path = NSTemporaryDirectory() + "mockauth-ca-" + UUID().uuidString + ".pem"
            try certificate.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
            caFile = path
            var secure = configuration
            secure.tls = .selfSigned(certificate)
            services.append(try buildApplication(secure, state: state, logger: logger) { continuation.yield($0) }.application)
        }
        defer { if let caFile { try? FileManager.default.removeItem(atPath: caFile) } }
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { continuation.finish() }  // a server that fails to start ends the wait below
                try await group.run()
            }
            var listening: [String] = []
            for await url in urls {
                listening.append(url)
                if listening.count == services.count { break }
            }
            guard let url = listening.first(where: { $0.hasPrefix("http:") }) else {
                await group.triggerGracefulShutdown()
                throw CancellationError()
            }
            let running = Running(url: url, state: state, tlsURL: listening.first { $0.hasPrefix("https:") }, caFile: caFile)
            return try await group.serving(&tasks) { try await body(running) }
        }
    }
}
