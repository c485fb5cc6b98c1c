/// The runtime overrides of the app's Entra settings (``SettingsOverrides``): set by the app,
/// stored in the app record, used for every issuer request (the Orchestrator rebuilds its
/// issuer client from them), and cleared in the step that commits an unenrollment (104).
extension ComplianceMachine {
    /// Sets the overrides in force (each value nil: the Info.plist's). Replies `.settings`
    /// with them; notes `settingsOverridden` when they changed.
    public mutating func setSettingsOverrides(_ overrides: SettingsOverrides, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if overrides != settingsOverrides {
            settingsOverrides = overrides
            markAppDirty()
            note(.settingsOverridden(overrides))
        }
        reply(ticket, .settings(overrides))
    }

    /// At the end of every step: an unenrollment this step notes (104) ends the overrides.
    mutating func clearOverridesAfterUnenrollment() {
        guard !settingsOverrides.isEmpty else { return }
        for event in volatile.events {
            guard case .unenroll(let report) = event, report.status == .unenrollmentSuccess else { continue }
            settingsOverrides = SettingsOverrides()
            markAppDirty()
            note(.settingsOverridesCleared(report.account))
            return
        }
    }
}
