import Testing
@testable import ComplianceCore
