import ChildProcess
import Foundation
import JSON
import LocalServers

/// Runs the built `compliancectl` with a bounded wait.
enum CLI {
    static let root = InProcessMockAuth.packageRoot.path
    static let brokenFlows = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("broken-flows").path

    struct Result: Sendable {
        var status: Int32?
        var stdout: String
        var stderr: String

        var json: JSONValue { (try? JSONValue.parse(stdout)) ?? .null }
    }

    static func run(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil, timeout: Duration = .seconds(300)) async throws -> Result {
        let completion = try await ChildProcess.run(
            ChildServer.executable("compliancectl"), arguments, input: input.map { Array($0.utf8) }, environment: environment, timeout: timeout)
        return Result(status: completion.status, stdout: completion.standardOutput, stderr: completion.standardError)
    }
}
