/// The app's answer to the SDK's `restartApplication` (IntuneMAMPolicyDelegate), asked when a
/// first policy needs the app to restart: YES, the app restarts itself (and says so once it
/// has); NO, the SDK restarts it after showing the user a dialog. The call is also the app's
/// save-state point ("If the app needs to save state before restarting, it can do so in
/// restartApplication").
///
/// The daemon asks it by running the app's restart hook, a program like the wipe hook: exit
/// status 0 answers YES; any other status, a hook killed by a signal or its time limit, or
/// one that cannot start answers NO (the app did not take the restart on, so the SDK does it,
/// as it does for an app without the delegate method).
public struct RestartAnswer: Sendable, Hashable, CustomStringConvertible, Codable {
    /// YES: the app handles the restart and reports it (``ComplianceMachine/appReportedRestart(ticket:now:)``).
    public var appHandlesRestart: Bool
    /// How the hook ended, for the event (`exited with status 0`, `timed out and was killed`, …).
    public var outcome: String

    public init(appHandlesRestart: Bool, outcome: String) {
        self.appHandlesRestart = appHandlesRestart
        self.outcome = outcome
    }

    /// The answer of a hook that exited with `status` (nil: it did not exit on its own, or
    /// never started); `outcome` says how it ended.
    public static func hook(exitStatus status: Int32?, outcome: String) -> RestartAnswer {
        RestartAnswer(appHandlesRestart: status == 0, outcome: outcome)
    }

    /// The text of the dialog the SDK shows before it restarts the app itself (NO); nil for YES.
    public var notice: String? {
        appHandlesRestart ? nil : Self.sdkRestartNotice
    }

    /// What the user is told when the SDK restarts the app.
    public static let sdkRestartNotice =
        "Your organization's data protection policy is now in force for this app. The app restarts to apply it."

    public var description: String {
        "restartApplication \(appHandlesRestart ? "YES" : "NO") (\(outcome))"
    }
}
