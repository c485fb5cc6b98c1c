/// Cut, copy and paste under the managed account's app protection policy (`clipboardRestriction`,
/// Microsoft Graph's `allowedOutboundClipboardSharingLevel`), decided from the data identity of
/// each side: the app's content acts as the UI identity, a web view's as its ``DataIdentity``
/// (the SDK guide: "any cut/copy data from the web view will be treated as managed content.
/// Pasting into the web view will be treated according to the managed account's policies").
///
/// | restriction | copy out of managed content to | paste into managed content from |
/// |---|---|---|
/// | `allApps` (or unset) | anywhere | anywhere |
/// | `managedAppsWithPasteIn` | managed apps only | anywhere |
/// | `managedApps` | managed apps only | managed apps only |
/// | `blocked` | nowhere outside the managed content | nowhere outside the managed content |
///
/// Unmanaged content to unmanaged content is never restricted ("no additional restrictions will
/// be imposed"); managed content to managed content of the same app always goes (one account
/// is managed, so both sides are its). An unknown value restricts like `blocked` (fail closed).
public enum ClipboardRestriction: String, Sendable, Hashable, CaseIterable, Codable {
    case allApps
    case managedAppsWithPasteIn
    case managedApps
    case blocked

    /// The policy's value; absent or unmanaged: `allApps`; a value this version does not know:
    /// `blocked`.
    public init(policyValue: String?) {
        guard let policyValue else { self = .allApps; return }
        self = ClipboardRestriction(rawValue: policyValue) ?? .blocked
    }
}

/// One side of a cut/copy/paste.
public enum ClipboardEndpoint: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Content of this app acting as this identity (its UI, or one of its web views).
    case app(DataIdentity)
    /// Another app on the device, managed by the organization's policy or not.
    case otherApp(managed: Bool)

    /// Whether this side is the managed account's content in this app.
    var isManagedContent: Bool {
        if case .app(let identity) = self { identity.isManaged } else { false }
    }

    public var description: String {
        switch self {
        case .app(.managed(let account)): "managed content (\(account))"
        case .app(.unmanaged): "unmanaged content of this app"
        case .otherApp(let managed): managed ? "a managed app" : "an unmanaged app"
        }
    }
}

/// The answer to one cut/copy/paste: allowed or not, under which restriction, and why.
public struct ClipboardDecision: Sendable, Hashable, Codable {
    public let allowed: Bool
    /// The managed account's restriction that applied; nil when none applies (neither side is
    /// managed content, or both are).
    public let restriction: ClipboardRestriction?
    public let reason: String

    /// Decides moving clipboard content from `source` to `destination` under `restriction`
    /// (the managed account's; it governs only transfers that leave or enter its content).
    public static func decide(from source: ClipboardEndpoint, to destination: ClipboardEndpoint, restriction: ClipboardRestriction) -> ClipboardDecision {
        switch (source.isManagedContent, destination.isManagedContent) {
        case (false, false):
            return ClipboardDecision(allowed: true, restriction: nil, reason: "neither side is managed content: no restriction applies")
        case (true, true):
            return ClipboardDecision(allowed: true, restriction: nil, reason: "both sides are the managed account's content")
        case (true, false):
            let toManagedApp = destination == .otherApp(managed: true)
            let allowed: Bool
            switch restriction {
            case .allApps: allowed = true
            case .managedAppsWithPasteIn, .managedApps: allowed = toManagedApp
            case .blocked: allowed = false
            }
            let why = allowed
                ? "copying managed content to \(destination) is allowed by clipboardRestriction \(restriction.rawValue)"
                : "clipboardRestriction \(restriction.rawValue) keeps managed content from \(destination)"
            return ClipboardDecision(allowed: allowed, restriction: restriction, reason: why)
        case (false, true):
            let fromManagedApp = source == .otherApp(managed: true)
            let allowed: Bool
            switch restriction {
            case .allApps, .managedAppsWithPasteIn: allowed = true
            case .managedApps: allowed = fromManagedApp
            case .blocked: allowed = false
            }
            let why = allowed
                ? "pasting from \(source) into managed content is allowed by clipboardRestriction \(restriction.rawValue)"
                : "clipboardRestriction \(restriction.rawValue) refuses a paste from \(source) into managed content"
            return ClipboardDecision(allowed: allowed, restriction: restriction, reason: why)
        }
    }
}

extension DataProtectionPolicy {
    /// The managed account's `clipboardRestriction` (``ClipboardRestriction``); `allApps` for an
    /// unmanaged identity's unrestricted policy.
    public var clipboardRestriction: ClipboardRestriction {
        ClipboardRestriction(policyValue: settings["clipboardRestriction"]?.stringValue)
    }

    /// Whether external links of managed web content open in the managed browser:
    /// `openLinksInManagedBrowser` of the managed account's policy.
    public var webLinkPolicy: WebLinkPolicy {
        settings["openLinksInManagedBrowser"]?.boolValue == true ? .managedBrowser : .anyApp
    }
}
