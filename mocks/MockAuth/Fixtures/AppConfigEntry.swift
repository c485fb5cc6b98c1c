import JSON

/// One MAM app configuration the admin targets at an app (Intune's "app configuration
/// policies for managed apps"): string settings for some users, every user, or the tenant
/// default. The MAM service hands each enrolled user the configurations that apply to them
/// as `appConfig`, the SDK's `fullData`: one object per configuration, the tenant default
/// marked `"__IsDefault": true`.
public struct AppConfigEntry: Sendable, Hashable {
    /// The client id of the app it configures.
    public var appId: String
    /// The UPNs it targets (lowercased); nil: every user.
    public var users: [String]?
    /// The tenant-wide default (used only when no targeted configuration sets a key).
    public var isDefault: Bool
    /// Key → string value.
    public var settings: JSONObject

    public init(appId: String, users: [String]?, isDefault: Bool, settings: JSONObject) {
        self.appId = appId
        self.users = users?.map { $0.lowercased() }
        self.isDefault = isDefault
        self.settings = settings
    }

    /// Whether it applies to `upn` using `appId`.
    public func applies(to upn: String, appId: String) -> Bool {
        guard self.appId == appId else { return false }
        return isDefault || users.map { $0.contains(upn.lowercased()) } ?? true
    }

    /// The object the MAM service sends (`fullData` entry).
    public var fullDataEntry: JSONValue {
        var object = settings
        if isDefault { object["__IsDefault"] = true }
        return .object(object)
    }

    /// As the admin API shows it.
    public var json: JSONValue {
        [
            "appId": .string(appId), "users": users.map { .array($0.map { .string($0) }) } ?? .null, "isDefault": .bool(isDefault),
            "settings": .object(settings),
        ]
    }

    /// Reads one entry of `PUT /_admin/app-config`; the message names the field at `path`.
    public init(json: JSONValue, path: String) throws(AdminError) {
        guard let object = json.objectValue else { throw AdminError.badRequest("\(path) must be an object") }
        for key in object.map(\.0) where !["appId", "users", "isDefault", "settings"].contains(key) {
            throw AdminError.badRequest("\(path).\(key) is not a field (known: appId, users, isDefault, settings)")
        }
        guard let appId = object["appId"]?.stringValue, !appId.isEmpty else { throw AdminError.badRequest("\(path).appId is required (a client id)") }
        var users: [String]?
        if let list = object["users"], !list.isNull {
            guard let items = list.arrayValue?.compactMap(\.stringValue), items.count == list.arrayValue?.count else {
                throw AdminError.badRequest("\(path).users must be an array of UPNs, or null for every user")
            }
            users = items
        }
        let isDefault: Bool
        switch object["isDefault"] {
        case nil, .null?: isDefault = false
        case let value?:
            guard let flag = value.boolValue else { throw AdminError.badRequest("\(path).isDefault must be true or false") }
            isDefault = flag
        }
        if isDefault, users != nil { throw AdminError.badRequest("\(path): the tenant default targets every user; leave users out") }
        guard let settings = object["settings"]?.objectValue else { throw AdminError.badRequest("\(path).settings is required (an object of strings)") }
        for (key, value) in settings {
            guard value.stringValue != nil else { throw AdminError.badRequest("\(path).settings.\(key) must be a string (app configuration values are strings)") }
            guard key != "__IsDefault" else { throw AdminError.badRequest("\(path).settings.__IsDefault is reserved; use isDefault") }
        }
        self.init(appId: appId, users: users, isDefault: isDefault, settings: settings)
    }
}
