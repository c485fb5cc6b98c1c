import JSON

/// The app protection policy the mock MAM service hands out.
public struct MAMPolicy: Sendable, Hashable {
    /// Policy id, stable across versions.
    public var id: String
    /// Client ids of the apps the policy targets.
    public var appIds: [String]
    /// Bumped on every change; the etag is derived from it.
    public var version: Int
    /// UPNs allowed to sign in to the managed app; `nil` means any account.
    public var allowedAccounts: [String]? { didSet { allowedIndex = Self.index(allowedAccounts) } }
    /// The allowed accounts lowercased, so ``allows(upn:)`` costs the same for 3 accounts or 100,000.
    private var allowedIndex: Set<String>?
    /// The settings object (see ``MAMPolicy/settingKinds``), in fixture order.
    public var settings: JSONObject
    /// The MAM app configurations (admin API only; none in a fixture file).
    public var appConfigs: [AppConfigEntry] = []

    /// The `appConfig` (`fullData`) the service hands `upn` using `appId`: the configurations
    /// that apply, in the order the admin gave them.
    public func appConfig(upn: String, appId: String) -> JSONValue {
        .array(appConfigs.filter { $0.applies(to: upn, appId: appId) }.map(\.fullDataEntry))
    }

    public init(id: String, appIds: [String], version: Int, allowedAccounts: [String]?, settings: JSONObject) {
        self.id = id
        self.appIds = appIds
        self.version = version
        self.allowedAccounts = allowedAccounts
        self.allowedIndex = Self.index(allowedAccounts)
        self.settings = settings
    }

    private static func index(_ accounts: [String]?) -> Set<String>? {
        accounts.map { Set($0.map { $0.lowercased() }) }
    }

    /// Known settings and the JSON kind each must have.
    public static let settingKinds: [(name: String, kind: String)] = [
        ("fileEncryptionRequired", "boolean"),
        ("openLinksInManagedBrowser", "boolean"),
        ("clipboardRestriction", "string"),
        ("dataTransferRestriction", "string"),
        ("saveToLocations", "array"),
        ("openFromLocations", "array"),
        ("pinRequired", "boolean"),
        ("notificationRestriction", "string"),
        ("inboundDataTransfer", "string"),
    ]

    /// The values a setting may take, for the settings with a fixed set (Intune's app
    /// protection settings, with Microsoft Graph's names).
    public static let settingValues: [String: [String]] = [
        "dataTransferRestriction": ["allApps", "managedApps", "none"],
        "clipboardRestriction": ["allApps", "managedAppsWithPasteIn", "managedApps", "blocked"],
        "inboundDataTransfer": ["allApps", "managedApps", "none"],
        "notificationRestriction": ["allow", "blockOrganizationalData", "block"],
        "saveToLocations": ["oneDriveForBusiness", "sharePoint", "box", "localStorage", "photoLibrary"],
        "openFromLocations": ["oneDriveForBusiness", "sharePoint", "camera", "photoLibrary", "localStorage"],
    ]

    /// Checks one setting's name and kind; returns a message when it is not acceptable.
    public static func problem(setting name: String, value: JSONValue) -> String? {
        guard let known = settingKinds.first(where: { $0.name == name }) else {
            let names = settingKinds.map(\.name)
            return "unknown policy setting '\(name)' (\(ClosestName.hint(name, among: names))known: \(names.joined(separator: ", ")))"
        }
        guard value.kindName == known.kind else {
            return "policy setting '\(name)' must be a \(known.kind), not a \(value.kindName)"
        }
        if known.kind == "array", value.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true {
            return "policy setting '\(name)' must be an array of strings"
        }
        if let allowed = settingValues[name] {
            let given = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
            if let wrong = given.first(where: { !allowed.contains($0) }) {
                return "policy setting '\(name)' cannot be \"\(wrong)\"; known: \(allowed.joined(separator: ", "))"
            }
        }
        return nil
    }

    /// An opaque version tag, e.g. `"W/\"pol-chatr-v3\""`.
    public var etag: String { "W/\"\(id)-v\(version)\"" }

    /// True when `upn` may sign in under this policy (case-insensitive; `nil` list allows anyone).
    public func allows(upn: String) -> Bool {
        guard let allowedIndex else { return true }
        return allowedIndex.contains(upn.lowercased())
    }

    /// The policy as the MAM service returns it.
    public var json: JSONValue {
        var object = JSONObject([
            ("id", .string(id)),
            ("version", .int(Int64(version))),
            ("etag", .string(etag)),
            ("appIds", .array(appIds.map { .string($0) })),
            ("allowedAccounts", allowedAccounts.map { .array($0.map { .string($0) }) } ?? .null),
        ])
        for (key, value) in settings { object[key] = value }
        return .object(object)
    }
}
