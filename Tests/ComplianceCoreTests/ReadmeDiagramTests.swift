import Foundation
import Testing
@testable import ComplianceCore

/// The README's Mermaid diagrams must list exactly the transitions each machine documents.
@Suite struct ReadmeDiagramTests {
    static let machines: [(String, [DocumentedTransition])] = [
        ("TokenAcquisitionStateMachine", TokenAcquisitionStateMachine.documentedTransitions),
        ("RemediationStateMachine", RemediationStateMachine.documentedTransitions),
        ("EnrollmentStateMachine", EnrollmentStateMachine.documentedTransitions),
        ("AllowedAccountsStateMachine", AllowedAccountsStateMachine.documentedTransitions),
        ("SelectiveWipeStateMachine", SelectiveWipeStateMachine.documentedTransitions),
    ]

    /// The lines of the first ```mermaid block after the `### <machine>` heading.
    static func diagram(for machine: String, in readme: String) -> [String]? {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("### ") && $0.contains(machine) }) else { return nil }
        guard let open = lines[heading...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```mermaid" }) else { return nil }
        guard let close = lines[(open + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" }) else { return nil }
        return lines[(open + 1)..<close].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: machines.map(\.0))
    func diagramMatchesTheCode(machine: String) throws {
        let readme = try SourceTree.read(SourceTree.complianceCore.appendingPathComponent("README.md"))
        let lines = try #require(Self.diagram(for: machine, in: readme), "README.md has no diagram for \(machine)")
        #expect(lines.first == "stateDiagram-v2")
        let edges = lines.filter { $0.contains("-->") && !$0.hasPrefix("[*]") && !$0.hasSuffix("[*]") }
        let documented = Self.machines.first { $0.0 == machine }!.1
        #expect(Set(edges) == Set(documented.map(\.mermaid)), "README diagram and \(machine).documentedTransitions differ")
        #expect(edges.count == documented.count, "duplicate edges in README for \(machine)")
    }

    @Test func everyDocumentedStateIsAStateOfTheMachine() {
        // The names used in transitions are the machines' `stateName` values (checked
        // against live machines in the property tests); here: no empty or spaced names.
        for (_, transitions) in Self.machines {
            for transition in transitions {
                #expect(!transition.from.isEmpty && !transition.from.contains(" "))
                #expect(!transition.to.isEmpty && !transition.to.contains(" "))
            }
        }
    }
}
