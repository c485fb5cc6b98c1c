import Foundation
import Testing
import TestSupport

/// Every fault mockauth can inject × every endpoint the client talks to: the status the app
/// gets, what the engine schedules, and that the device recovers with a sound store. The test
/// generates and prints the table; each cell must match ``MatrixExpectation``.
@Suite struct FaultMatrixTests {
    @Test func everyFaultOnEveryEndpointMapsToItsStatusAndTheDeviceRecovers() async throws {
        let root = NSTemporaryDirectory() + "fault-matrix-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let results = try await InProcessMockAuth.run(tls: true) { mock in
            let lab = MatrixLab(mock: mock, root: root)
            var results: [[MatrixCell.Result]] = []
            for fault in MatrixFault.allCases {
                var row: [MatrixCell.Result] = []
                for endpoint in MatrixEndpoint.allCases {
                    row.append(try await MatrixCell(fault: fault, endpoint: endpoint).run(in: lab))
                }
                results.append(row)
            }
            return results
        }
        print(Self.table(results))
        for (faultIndex, fault) in MatrixFault.allCases.enumerated() {
            for (endpointIndex, endpoint) in MatrixEndpoint.allCases.enumerated() {
                let result = results[faultIndex][endpointIndex]
                let expected = MatrixExpectation.cell(fault, endpoint)
                #expect(result.observation == expected, "\(fault.title) × \(endpoint.title): got '\(result.observation.text)', expected '\(expected.text)'")
                #expect(result.recoveryProblem == nil, "\(fault.title) × \(endpoint.title): no recovery: \(result.recoveryProblem ?? "")")
            }
        }
    }

    /// A markdown table: a row per fault, a column per endpoint; a cell that did not recover
    /// is marked `NOT RECOVERED`.
    static func table(_ results: [[MatrixCell.Result]]) -> String {
        let header = ["fault \\ endpoint"] + MatrixEndpoint.allCases.map(\.title)
        var rows = [header, header.map { String(repeating: "-", count: max(3, $0.count)) }]
        for (index, fault) in MatrixFault.allCases.enumerated() {
            rows.append([fault.title] + results[index].map { $0.observation.text + ($0.recoveryProblem == nil ? "" : " NOT RECOVERED") })
        }
        let legend = """
            Cells: the status the app got (IntuneMAMComplianceStatus) and the enrollment status code of the MAM step; \
            retry/check-in: when the engine runs that step again; held: a repeat at once (fault cleared) failed without \
            reaching the server (Retry-After honoured); wiped: the failed remediation wiped the account's managed data; \
            not requested: the client never calls it; TLS refused: the handshake failed before any request. After every \
            cell the fault is cleared and the same step succeeds on the same state directory (for TLS: restarted with \
            the CA file), with SQLite's integrity and foreign-key checks clean.
            """
        return rows.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n") + "\n" + legend
    }
}
