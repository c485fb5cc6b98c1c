import ComplianceCore

/// Who signs in when a request needs interaction.
public enum InteractiveUser: Sendable, Hashable, CustomStringConvertible {
    /// The daemon fills the issuer's sign-in form as the request's account with this
    /// password (mockauth's page, and pages shaped like it; flows script it).
    case signIn(password: String)
    /// Presses cancel on that sign-in page.
    case cancel
    /// A person signs in in a browser: authorization code + PKCE with a loopback redirect
    /// (RFC 8252); the session publishes the URL to open and may be cancelled. `timeout`
    /// bounds the wait for the redirect.
    case browser(InteractionSession, timeout: Duration)
    /// A person signs in on another device (RFC 8628); the session publishes the
    /// verification URI and user code and may be cancelled.
    case deviceCode(InteractionSession)
    /// The resource owner password grant (test issuers only; Entra discourages it).
    case passwordGrant(password: String)

    /// What the machine knows of this person (``CallerCredentials``).
    public var credentials: CallerCredentials {
        if case .cancel = self { return .cancels }
        return .person
    }

    /// The default wait for a browser sign-in's redirect.
    public static let browserTimeout: Duration = .seconds(300)

    /// Never prints the password.
    public var description: String {
        switch self {
        case .signIn: "signIn(<redacted>)"
        case .cancel: "cancel"
        case .browser(let session, _): "browser(\(session.id))"
        case .deviceCode(let session): "deviceCode(\(session.id))"
        case .passwordGrant: "passwordGrant(<redacted>)"
        }
    }

    /// The session a person completes, if any.
    var session: InteractionSession? {
        switch self {
        case .browser(let session, _), .deviceCode(let session): session
        case .signIn, .cancel, .passwordGrant: nil
        }
    }
}

/// The end of a token request (the composed machine's answer).
public typealias TokenOutcome = ComplianceMachine.TokenAnswer

/// The end of a sign-in.
public struct SignInOutcome: Sendable {
    public var account: AccountID
    public var signedIn: Bool
    public var token: TokenOutcome
}

/// The end of a remediation: exactly one report, and tokens when Compliant.
public struct RemediationOutcome: Sendable {
    public var report: ComplianceStatusReport
    public var tokens: TokenSet?
}

/// The end of a deregistration.
public struct DeregisterOutcome: Sendable {
    public var account: AccountID
    /// 104 UnenrollmentSuccess, or why the service could not be told (203 AuthRequired, …).
    public var enrollmentStatus: EnrollmentStatus?
    public var wiped: Bool
}

/// What the engine knows about one account.
public struct AccountSummary: Sendable {
    public var account: AccountID
    public var homeAccountID: String?
    public var signedIn: Bool
    public var managed: Bool
    public var enrollmentState: EnrollmentStateMachine.Phase
    public var lastEnrollmentStatus: EnrollmentStatus?
    public var nextDueAt: EpochMillis?
    public var compliance: ComplianceStatus?
    /// `idle`, the running step's name, or `queued`.
    public var remediation: String
    /// `idle`, the wipe's step, or `done`.
    public var wipe: String
    public var dataFiles: Int
}

/// A timer that fired during a clock advance.
public struct FiredTimer: Sendable, Hashable {
    public var timer: String
    public var account: AccountID?
    public var dueAt: EpochMillis
}

/// The app's identities (``Engine/identityView()``).
public struct IdentityView: Sendable, Hashable {
    /// The profile's `MultiIdentity`.
    public var multiIdentity: Bool
    /// `setProcessIdentity`'s setting: unset, no user, or an account.
    public var process: IdentitySetting
    /// `setUIPolicyIdentity`'s setting.
    public var ui: IdentitySetting
    /// The identity the UI runs under (nil: no user).
    public var effectiveUI: AccountID?
}

/// The app's Entra settings (``Engine/settingsView()``): in force, the profile's, and the
/// runtime overrides.
public struct SettingsView: Sendable, Hashable {
    /// An authority, client id and redirect URI.
    public struct Settings: Sendable, Hashable {
        public var authority: String
        public var clientID: String
        public var redirectURI: String
    }

    public var inForce: Settings
    /// The Info.plist's and the daemon's.
    public var profile: Settings
    public var overrides: SettingsOverrides
}
