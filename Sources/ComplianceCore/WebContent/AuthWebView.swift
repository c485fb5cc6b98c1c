/// An Apple OS and version, as MSAL checks it when choosing the auth web view.
public struct AuthPlatform: Sendable, Hashable, CustomStringConvertible, Codable {
    public enum OS: String, Sendable, Hashable, Codable { case iOS, macOS }

    public let os: OS
    public let major: Int
    public let minor: Int

    public init(_ os: OS, _ major: Int, _ minor: Int = 0) {
        self.os = os
        self.major = major
        self.minor = minor
    }

    public static func iOS(_ major: Int, _ minor: Int = 0) -> AuthPlatform { AuthPlatform(.iOS, major, minor) }
    public static func macOS(_ major: Int, _ minor: Int = 0) -> AuthPlatform { AuthPlatform(.macOS, major, minor) }

    /// Whether this is `os` at `major.minor` or later.
    public func isAtLeast(_ os: OS, _ major: Int, _ minor: Int = 0) -> Bool {
        self.os == os && (self.major, self.minor) >= (major, minor)
    }

    public var description: String { "\(os.rawValue) \(major).\(minor)" }
}

/// The technologies that can show the sign-in page.
public enum AuthWebView: String, Sendable, Hashable, CaseIterable, Codable {
    case asWebAuthenticationSession = "ASWebAuthenticationSession"
    case sfAuthenticationSession = "SFAuthenticationSession"
    case sfSafariViewController = "SFSafariViewController"
    case wkWebView = "WKWebView"

    /// The MSAL cookie-sharing and SSO table's availability columns.
    public func isAvailable(on platform: AuthPlatform) -> Bool {
        switch self {
        case .asWebAuthenticationSession: platform.isAtLeast(.iOS, 12) || platform.isAtLeast(.macOS, 10, 15)
        case .sfAuthenticationSession: platform.isAtLeast(.iOS, 11)
        case .sfSafariViewController: platform.isAtLeast(.iOS, 9)
        case .wkWebView: platform.isAtLeast(.iOS, 8) || platform.isAtLeast(.macOS, 10, 10)
        }
    }

    /// The table's row for this technology on `platform`; `nil` where it is not available.
    public func traits(on platform: AuthPlatform) -> AuthBrowserTraits? {
        guard isAvailable(on: platform) else { return nil }
        switch self {
        case .asWebAuthenticationSession, .sfAuthenticationSession:
            return AuthBrowserTraits(kind: .system, sharesCookies: true, sso: .withSafariInstances)
        case .sfSafariViewController:
            // "In iOS 9 and 10, cookies and other website data are shared with Safari--but not in iOS 11 and later."
            let shares = !platform.isAtLeast(.iOS, 11)
            return AuthBrowserTraits(kind: .system, sharesCookies: shares, sso: shares ? .withSafariInstances : .needsTokenSharing)
        case .wkWebView:
            return AuthBrowserTraits(kind: .inApp, sharesCookies: false, sso: .needsTokenSharing)
        }
    }
}

/// What one auth web view shares with the rest of the system.
public struct AuthBrowserTraits: Sendable, Hashable, Codable {
    /// System browsers run outside the app; an in-app browser inside it.
    public enum Kind: String, Sendable, Hashable, Codable { case system, inApp }

    /// How single sign-on can work.
    public enum SSO: String, Sendable, Hashable, Codable {
        /// Through the cookies shared with Safari instances.
        case withSafariInstances
        /// No cookie SSO: tokens must be shared between apps (a shared token cache, or a broker
        /// such as Microsoft Authenticator).
        case needsTokenSharing
    }

    public let kind: Kind
    /// Shares cookies and other website data with Safari.
    public let sharesCookies: Bool
    public let sso: SSO

    public init(kind: Kind, sharesCookies: Bool, sso: SSO) {
        self.kind = kind
        self.sharesCookies = sharesCookies
        self.sso = sso
    }
}

/// `MSALWebviewType`: the browser an interactive request asks for.
public enum MSALWebviewType: String, Sendable, Hashable, CaseIterable, Codable {
    /// `MSALWebviewTypeDefault`: the recommended browser for the OS version.
    case `default`
    /// `MSALWebviewTypeAuthenticationSession`: ASWebAuthenticationSession, or SFAuthenticationSession
    /// on older iOS; fails the request when neither exists.
    case authenticationSession
    /// `MSALWebviewTypeSafariViewController`: iOS only.
    case safariViewController
    /// `MSALWebviewTypeWKWebView`.
    case wkWebView
}
