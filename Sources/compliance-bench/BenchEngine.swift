import AppProfile
import Daemon
import Foundation
import Logging
import Orchestrator

/// An in-process Orchestrator engine (built as the daemon builds it, ``DaemonParts``) in a
/// temporary state directory, against a mock, on a virtual clock.
struct BenchEngine: Sendable {
    let parts: DaemonParts
    let directory: String
    var engine: Engine { parts.engine }
    var store: OrchestratorStore { parts.store }

    static let chatRead = ["api://contoso-chat/Chat.Read"]
    static let clientID = "chatr"
    static let password = InteractiveUser.signIn(password: "Passw0rd!")
    static let appProfile = BenchMock.packageRoot.appendingPathComponent("mocks/fixtures/apps/chatr-Info.plist").path
    static let quiet = Logger(label: "bench.engine", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A fresh temporary state directory.
    static func makeDirectory(_ name: String) -> String {
        NSTemporaryDirectory() + "compliance-bench-\(name)-" + UUID().uuidString
    }

    /// The daemon's parts on `directory` (not started).
    static func parts(directory: String, mock: BenchMock.Running) throws -> DaemonParts {
        let configuration = try DaemonConfiguration(
            stateDirectory: directory, app: try AppSettings.load(infoPlist: appProfile), authority: mock.authority,
            mamURL: mock.mamURL, clock: .virtual, httpTimeout: .seconds(10))
        return try DaemonParts(configuration, logger: quiet)
    }

    /// Runs `body` with an engine started on a fresh state directory; removes it afterwards.
    static func run<T: Sendable>(_ name: String, mock: BenchMock.Running, _ body: @Sendable (BenchEngine) async throws -> T) async throws -> T {
        let directory = makeDirectory(name)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let parts = try parts(directory: directory, mock: mock)
        try await parts.engine.start()
        return try await parts.engine.withRunning { _ in try await body(BenchEngine(parts: parts, directory: directory)) }
    }
}
