/// The SDK guide's launch settings (`IntuneMAMSettings` in the Info.plist), as the composed
/// machine keeps them:
/// - `AutoEnrollOnLaunch`: at start, every signed-in account that holds tokens and is not
///   enrolled (nor enrolling) is registered and enrolled, silently ("the enrollment attempt will
///   silently fail without prompting for credentials"). Decided for issue 38: an account the app
///   deregistered without signing it out is such an account ("attempt to automatically enroll
///   on launch if an existing managed identity is detected and it has not yet done so": it is
///   still signed in with its tokens in the cache, and the app is not enrolled), so it is
///   enrolled again at the next launch; an app that wants it left alone signs it out, or
///   deregisters it with a wipe, which removes its tokens (flows/launch-auto-enroll-on-launch.json,
///   flows/launch-deregistered-with-wipe-stays-out.json). The first policy such an enrollment
///   brings is restarted by the SDK at once, without the app's restart hook
///   (``ComplianceMachine/asksAppToRestart``): "you don't have to handle restarting your app
///   after enrolling".
/// - `MAMPolicyRequired`: "the app will be blocked from starting if the app doesn't have an
///   Intune app protection policy": while no policy is in force, the app's token requests and
///   its managed data are refused (`policy_required`); sign-in and remediation, which bring a
///   policy, still run.
/// - `MAMPolicyWarnAbsent`: "warn the user during launch if the app doesn't have an Intune app
///   protection policy"; the app is used normally after the warning.
/// A launch without policy notes `policyAbsent` (``ComplianceEvent/policyAbsent(required:)``)
/// once the start-up work is done (``ComplianceMachine/launchFinished(resumed:clock:now:)``), when either
/// `MAMPolicyRequired` or `MAMPolicyWarnAbsent` is set.
public struct LaunchSettings: Sendable, Hashable, Codable {
    public var autoEnrollOnLaunch: Bool
    public var policyRequired: Bool
    public var warnAbsent: Bool

    public init(autoEnrollOnLaunch: Bool = false, policyRequired: Bool = false, warnAbsent: Bool = false) {
        self.autoEnrollOnLaunch = autoEnrollOnLaunch
        self.policyRequired = policyRequired
        self.warnAbsent = warnAbsent
    }
}
