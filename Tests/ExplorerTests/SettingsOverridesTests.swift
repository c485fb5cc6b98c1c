import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// The runtime overrides of the Entra settings: stored in the app record, rebuilt with it, and
/// cleared in the step that commits an unenrollment (the values' checks:
/// ComplianceCoreTests' SettingsOverridesProblemTests).
@Suite struct SettingsOverridesTests {
    static let now = Instant(millisecondsSinceEpoch: 5_000)
    static let overrides = SettingsOverrides(authority: "https://login.example.com/contoso.com", clientID: "chatr-gov", redirectURI: "chatr://x")

    static func drain(_ machine: inout ComplianceMachine) -> [ComplianceEvent] {
        var events: [ComplianceEvent] = []
        while true {
            switch machine.nextAction() {
            case .none: return events
            case .persist(let changes):
                events += changes.events
                machine.persisted()
            default: continue
            }
        }
    }

    @Test func overridesAreStoredAndSurviveARebuild() throws {
        var machine = ScriptRun(universe: universe).run(script("alice remediates")).final.machine
        machine.setSettingsOverrides(Self.overrides, ticket: .init(800), now: Self.now)
        #expect(Self.drain(&machine).contains(.settingsOverridden(Self.overrides)))
        let rebuilt = try ComplianceMachine(restoring: machine.stored, configuration: machine.configuration)
        #expect(rebuilt.settingsOverrides == Self.overrides)
        machine.setSettingsOverrides(Self.overrides, ticket: .init(801), now: Self.now)
        #expect(Self.drain(&machine).isEmpty, "the same overrides again change nothing")
    }

    @Test func anUnenrollmentClearsThemAndAFailedOneKeepsThem() throws {
        var machine = ScriptRun(universe: universe).run(script("alice remediates")).final.machine
        machine.settingsOverrides = Self.overrides
        var failed = machine
        machine.volatile.events.append(.unenroll(EnrollmentReport(account: alice, status: .unenrollmentSuccess)))
        machine.clearOverridesAfterUnenrollment()
        #expect(machine.settingsOverrides.isEmpty)
        #expect(machine.volatile.events.last == .settingsOverridesCleared(alice))
        failed.volatile.events.append(.unenroll(EnrollmentReport(account: alice, status: .internalError)))
        failed.clearOverridesAfterUnenrollment()
        #expect(failed.settingsOverrides == Self.overrides)
    }
}
