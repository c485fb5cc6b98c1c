/// What the SDK asks a MultiIdentity app about its identities (IntuneMAMPolicyDelegate), and
/// the app's answer (`IntuneMAMAddIdentityResult`, the result type both calls take in the
/// guide):
/// - `identitySwitchRequired`: "Sometimes, the SDK needs to ask the app to switch to a specific
///   identity … if the app can handle the request to switch to the specified identity, it
///   should pass IntuneMAMAddIdentityResultSuccess into the completion handler. If it can't
///   handle switching the identity, the app should pass IntuneMAMAddIdentityResultFailed." The
///   header adds: "The SDK will block the operation which required the identity switch until the
///   application calls the completion handler."
/// - `addIdentity:completionHandler:`: "When the SDK needs to auto-enroll a user in the app to
///   perform an action … pass in IntuneMAMAddIdentityResultSuccess if the app is able to add the
///   identity or IntuneMAMAddIdentityResultFailed otherwise."
///
/// The daemon asks through the app's identity hook (`complianced --identity-hook`), as it asks
/// `restartApplication` and `wipeDataForAccount`: exit status 0 is Success; anything else, a
/// hook killed by a signal or its time limit, or one that cannot start, is Failed (the app did
/// not take the request on). Without a hook the daemon, playing the app, answers Success.
public enum AppIdentityQuestion: Sendable, Hashable, CustomStringConvertible, Codable {
    /// `identitySwitchRequired` to `identity` (nil: no user, the empty string of the guide).
    case switchRequired(AccountID?, IdentitySwitchReason)
    /// `addIdentity:completionHandler:` for an account the SDK enrolled on its own.
    case addIdentity(AccountID)

    /// The delegate method's name, as the hook's `COMPLIANCE_IDENTITY_CALL` and the event say it.
    public var call: String {
        switch self {
        case .switchRequired: "identitySwitchRequired"
        case .addIdentity: "addIdentity"
        }
    }

    /// The identity asked about (nil: no user).
    public var identity: AccountID? {
        switch self {
        case .switchRequired(let identity, _): identity
        case .addIdentity(let account): account
        }
    }

    public var description: String {
        switch self {
        case .switchRequired(let identity, let reason): "identitySwitchRequired(\(identity?.upn ?? "no user"), \(reason.rawValue))"
        case .addIdentity(let account): "addIdentity(\(account.upn))"
        }
    }
}

/// `IntuneMAMAddIdentityResult`: the app's answer to an ``AppIdentityQuestion``.
public struct AppIdentityAnswer: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Success: the app handles the request (switches, or adds the account).
    public var success: Bool
    /// How the hook ended, for the event (`exited with status 0`, `no hook: the daemon plays the app`, …).
    public var outcome: String

    public init(success: Bool, outcome: String) {
        self.success = success
        self.outcome = outcome
    }

    /// The answer of a hook that exited with `status` (nil: it did not exit on its own, or
    /// never started).
    public static func hook(exitStatus status: Int32?, outcome: String) -> AppIdentityAnswer {
        AppIdentityAnswer(success: status == 0, outcome: outcome)
    }

    /// The result's name as the SDK spells it.
    public var result: String { success ? "Success" : "Failed" }

    public var description: String { "\(result) (\(outcome))" }
}
