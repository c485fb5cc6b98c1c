import ComplianceCore
import Foundation
import Logging
@testable import Orchestrator

/// A fresh directory under the system temp dir, removed after `body`.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "orchestrator-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Logs nothing: tests assert on values, not on log lines.
let quietLogger = Logger(label: "orchestrator-tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {  // `value` is guarded by `lock`
    private let lock = NSLock()
    private var value: EpochMillis

    init(_ start: EpochMillis = 1_700_000_000_000) { value = start }

    var now: EpochMillis { lock.withLock { value } }

    func advance(by millis: EpochMillis) { lock.withLock { value += millis } }

    var function: @Sendable () -> EpochMillis { { self.now } }
}

/// Opens a store in `directory` with a manual clock.
func openStore(_ directory: String, clock: ManualClock = ManualClock()) throws -> OrchestratorStore {
    try OrchestratorStore(stateDirectory: directory, clock: clock.function, logger: quietLogger)
}

/// Permission bits of a path.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

let alice = try! AccountID("Alice@Contoso.com")
let bob = try! AccountID("bob@contoso.com")
