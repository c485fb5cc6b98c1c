import JSON

/// One problem `lint` finds in an app profile: where it is, what is wrong, how to fix it.
public struct ProfileProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable { case error, warning }

    /// Which file of the profile holds the key.
    public enum File: String, Sendable, Hashable { case infoPlist, entitlements }

    /// What kind of problem: a stable name for tools (`kind.rawValue` in the JSON form).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case clientIdMissing, redirectMissing, autoEnrollOnLaunchOff, mamPolicyRequiredBlocksAppStore
        case invalidColor, invalidFileProtectionLevel
        case tooManyAppBoundDomains, querySchemeTwinMissing, requiredQuerySchemesMissing, outlookQuerySchemeMissing
        case bundleIdentifierMissing, keychainGroupMissing, keychainGroupNotFirst, keychainGroupWithoutPrefix
        case appGroupIdentifiersIncomplete, faceIDUsageDescriptionMissing, safariViewControllerBlockedOverride
        case protectionCapabilityMissing, capabilitiesNotStrings, urlSchemeTwinMissing, webViewHandledSchemeInvalid
        case querySchemeInvalid, querySchemeDuplicate, querySchemesOverLimit

        /// Whether `fixed()` repairs this kind of problem.
        public var isFixable: Bool {
            switch self {
            case .autoEnrollOnLaunchOff, .querySchemeTwinMissing, .requiredQuerySchemesMissing, .outlookQuerySchemeMissing,
                .keychainGroupMissing, .keychainGroupNotFirst, .keychainGroupWithoutPrefix, .appGroupIdentifiersIncomplete,
                .faceIDUsageDescriptionMissing, .protectionCapabilityMissing, .urlSchemeTwinMissing, .webViewHandledSchemeInvalid, .querySchemeInvalid,
                .querySchemeDuplicate:
                true
            case .clientIdMissing, .redirectMissing, .mamPolicyRequiredBlocksAppStore, .invalidColor, .invalidFileProtectionLevel, .tooManyAppBoundDomains,
                .bundleIdentifierMissing, .safariViewControllerBlockedOverride, .capabilitiesNotStrings, .querySchemesOverLimit:
                false
            }
        }
    }

    public let kind: Kind
    public let severity: Severity
    public let file: File
    /// Dotted path of the key (`IntuneMAMSettings.ADALClientId`, `keychain-access-groups`).
    public let keyPath: String
    /// What is wrong.
    public let message: String
    /// What to do about it.
    public let fix: String

    public init(_ kind: Kind, _ severity: Severity, _ file: File, _ keyPath: String, _ message: String, fix: String) {
        self.kind = kind
        self.severity = severity
        self.file = file
        self.keyPath = keyPath
        self.message = message
        self.fix = fix
    }

    /// `error: IntuneMAMSettings.ADALClientId: missing — fix: set it to your app's Entra client id`.
    public var description: String { "\(severity.rawValue): \(keyPath): \(message) — fix: \(fix)" }

    /// The JSON form: severity, kind, file, keyPath, message, fix, fixable.
    public var json: JSONValue {
        [
            "severity": .string(severity.rawValue), "kind": .string(kind.rawValue), "file": .string(file.rawValue),
            "keyPath": .string(keyPath), "message": .string(message), "fix": .string(fix), "fixable": .bool(kind.isFixable),
        ]
    }
}
