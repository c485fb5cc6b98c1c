import Foundation
import Testing
import LocalServers

/// Every fault mockauth can inject × every endpoint the client talks to: the status the app
/// gets, what the engine schedules, and that the device recovers with a sound store. The test
/// generates and prints the table; each cell must match ``MatrixExpectation``.
@Suite(.serialized) struct FaultMatrixTests {
    /// One fault a test case (its row of the matrix): every endpoint under it. Each failing
    /// cell names its fault and endpoint; a cell that throws is recorded and the row goes on.
    @Test(arguments: MatrixFault.allCases)
    func everyEndpointUnderTheFaultMapsToItsStatusAndTheDeviceRecovers(_ fault: MatrixFault) async throws {
        let root = NSTemporaryDirectory() + "fault-matrix-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let row = try await InProcessMockAuth.run(tls: true) { mock in
            let lab = MatrixLab(mock: mock, root: root)
            var row: [MatrixCell.Result?] = []
            for endpoint in MatrixEndpoint.allCases {
                do {
                    row.append(try await MatrixCell(fault: fault, endpoint: endpoint).run(in: lab))
                } catch {
                    Issue.record("\(fault.title) × \(endpoint.title): the cell could not run: \(error)")
                    row.append(nil)
                }
            }
            return row
        }
        print(Self.table([(fault, row)]))
        for (endpoint, result) in zip(MatrixEndpoint.allCases, row) {
            guard let result else { continue }
            let expected = MatrixExpectation.cell(fault, endpoint)
            #expect(result.observation == expected, "\(fault.title) × \(endpoint.title): got '\(result.observation.text)', expected '\(expected.text)'")
            #expect(result.recoveryProblem == nil, "\(fault.title) × \(endpoint.title): no recovery: \(result.recoveryProblem ?? "")")
        }
    }

    /// A markdown table: a row per fault, a column per endpoint; a cell that did not recover
    /// is marked `NOT RECOVERED`.
    static func table(_ rows: [(MatrixFault, [MatrixCell.Result?])]) -> String {
        let header = ["fault \\ endpoint"] + MatrixEndpoint.allCases.map(\.title)
        var lines = [header, header.map { String(repeating: "-", count: max(3, $0.count)) }]
        for (fault, results) in rows {
            lines.append([fault.title] + results.map { result in
                guard let result else { return "DID NOT RUN" }
                return result.observation.text + (result.recoveryProblem == nil ? "" : " NOT RECOVERED")
            })
        }
        let legend = """
            Cells: the status the app got (IntuneMAMComplianceStatus) and the enrollment status code of the MAM step; \
            retry/check-in: when the engine runs that step again; held: a repeat at once (fault cleared) failed without \
            reaching the server (Retry-After honoured); wiped: the failed remediation wiped the account's managed data; \
            TLS refused: the handshake failed before any request (keys: the sign-in failed at discovery). After every \
            cell the fault is cleared and the same step succeeds on the same state directory (for TLS: restarted with \
            the CA file), with SQLite's integrity and foreign-key checks clean.
            """
        return lines.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n") + "\n" + legend
    }
}

extension MatrixFault: CustomTestStringConvertible {
    var testDescription: String { title }
}
