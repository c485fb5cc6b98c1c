import ComplianceCore
import JSON

/// Status names and codes as flows write them: `"Compliant"` or `0`,
/// `"NewPoliciesReceived"` or `100` (names are case-insensitive).
enum StatusNames {
    static func complianceName(_ status: ComplianceStatus) -> String {
        String(status.description.prefix { $0 != "(" })
    }

    /// The code of a compliance status written as a name or a code; nil if it is neither.
    static func compliance(_ value: JSONValue) -> Int? {
        switch value {
        case .int(let code): return ComplianceStatus(rawValue: Int(code))?.rawValue
        case .string(let name): return ComplianceStatus.allCases.first { complianceName($0).lowercased() == name.lowercased() }?.rawValue
        default: return nil
        }
    }

    /// The code of an enrollment status written as a name or a code; nil if it is neither.
    static func enrollment(_ value: JSONValue) -> Int? {
        switch value {
        case .int(let code): return EnrollmentStatus(rawValue: Int(code))?.rawValue
        case .string(let name): return EnrollmentStatus.allCases.first { $0.name.lowercased() == name.lowercased() }?.rawValue
        default: return nil
        }
    }

    static var complianceNames: String { ComplianceStatus.allCases.map { "\(complianceName($0)) (\($0.rawValue))" }.joined(separator: ", ") }

    /// `Compliant (0)` for a code.
    static func describeCompliance(_ code: Int) -> String {
        ComplianceStatus(rawValue: code).map { "\(complianceName($0)) (\(code))" } ?? "\(code)"
    }

    /// `NewPoliciesReceived (100)` for a code.
    static func describeEnrollment(_ code: Int) -> String {
        EnrollmentStatus(rawValue: code).map { "\($0.name) (\(code))" } ?? "\(code)"
    }
}
