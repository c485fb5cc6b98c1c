import JSON

/// The data-protection answers of one account's policy object (`IntuneMAMPolicy`, from
/// `policyForIdentity:`), decided from the live policy of the app's managed account.
///
/// The SDK guide's rules, and the decisions where it is silent (DataProtection/README.md):
/// - Only one account is managed. Any other account, and `nil` (since SDK 15.1.0 a `nil`
///   account is unmanaged, also for LocalDrive/LocalStorage and single-identity apps), is
///   "treated as unmanaged with unrestricted policy settings": its own policy restricts
///   nothing; only the managed account's locations keep that account's rules on data crossing
///   into or out of them (DataProtectionPolicy+LocationOwner.swift).
/// - For the managed account, `saveToLocations` / `openFromLocations` absent or `null` means
///   not restricted; a list allows exactly its locations (Graph names: `oneDriveForBusiness`,
///   `sharePoint`, `box`, `localStorage`, `photoLibrary`, `camera`). A location tied to an
///   account (OneDrive, SharePoint, LocalDrive, AccountDocument) is allowed only when that
///   account is the managed one: managed data never goes to another account's storage.
public struct DataProtectionPolicy: Sendable, Hashable, Codable {
    /// The account whose policy this is, when it is the managed one (nil: unmanaged).
    public let managedAccount: AccountID?
    /// The managed account's policy settings (empty for an unmanaged account).
    public let settings: JSONObject
    /// For an unmanaged policy object: the app's managed account, whose locations (its OneDrive,
    /// SharePoint, sandbox storage, account documents) keep its policy on data crossing into or
    /// out of them (nil when no account is managed, or this policy is the managed account's).
    public let locationOwner: AccountID?
    /// The settings of ``locationOwner``'s policy (empty without one).
    let locationOwnerSettings: JSONObject

    /// The policy object of `identity`: restricted when it is `managed` (holding `settings`),
    /// unrestricted otherwise, including for `nil`.
    public init(identity: AccountID?, managed: AccountID?, settings: JSONObject?) {
        if let identity, let managed, identity == managed, let settings {
            self.managedAccount = managed
            self.settings = settings
            self.locationOwner = nil
            self.locationOwnerSettings = JSONObject()
        } else {
            self.managedAccount = nil
            self.settings = JSONObject()
            self.locationOwner = settings == nil ? nil : managed
            self.locationOwnerSettings = settings ?? JSONObject()
        }
    }

    /// Whether the policy is a managed account's (restricted) one.
    public var isManaged: Bool { managedAccount != nil }

    /// `isSaveToAllowedForLocation:withAccount:`: may this policy's owner's data be saved to
    /// `location`, owned by `account` (nil: unknown owner or none, unmanaged)?
    public func isSaveToAllowed(_ location: SaveLocation, account: AccountID?) -> Bool {
        guard let managed = managedAccount else { return unmanagedSaveAllowed(location, account: account) }
        guard let allowed = list("saveToLocations") else { return true }
        let ownLocation = account == managed
        switch location {
        case .oneDriveForBusiness, .sharePoint, .localDrive:
            return ownLocation && allowed.contains(location.policyName ?? "")
        case .accountDocument:
            return ownLocation
        case .box, .cameraRoll:
            return allowed.contains(location.policyName ?? "")
        case .dropbox, .googleDrive, .other:
            return false
        }
    }

    /// `isOpenFromAllowedForLocation:withAccount:`: may data from `location`, owned by
    /// `account`, be opened into this policy's owner?
    public func isOpenFromAllowed(_ location: OpenLocation, account: AccountID?) -> Bool {
        guard let managed = managedAccount else { return unmanagedOpenAllowed(location, account: account) }
        guard let allowed = list("openFromLocations") else { return true }
        let ownLocation = account == managed
        switch location {
        case .oneDriveForBusiness, .sharePoint:
            return ownLocation && allowed.contains(location.policyName ?? "")
        case .localStorage:
            // The managed account's own container already holds its data.
            return ownLocation || allowed.contains("localStorage")
        case .accountDocument:
            return ownLocation
        case .camera, .photos:
            return allowed.contains(location.policyName ?? "")
        case .other:
            return false
        }
    }

    /// `isFileEncryptionRequired`: the managed account's `fileEncryptionRequired`.
    public var isFileEncryptionRequired: Bool { settings["fileEncryptionRequired"]?.boolValue ?? false }

    /// `notificationPolicy`: the managed account's `notificationRestriction` (`allow`,
    /// `blockOrganizationalData`, `block`); allow when unset or unmanaged.
    public var notificationPolicy: NotificationPolicy {
        switch settings["notificationRestriction"]?.stringValue {
        case "block": .block
        case "blockOrganizationalData": .blockOrgData
        default: .allow
        }
    }

    /// `isAppSharingAllowed` (the share sheet): blocked only when `dataTransferRestriction` is
    /// `none`; with `managedApps` the sheet is filtered to managed apps, not blocked.
    public var isAppSharingAllowed: Bool { settings["dataTransferRestriction"]?.stringValue != "none" }

    /// `isURLAllowed:isKnownManagedAppScheme:` for a URL of `scheme`: http(s) always (the SDK
    /// sends it to the managed browser when `openLinksInManagedBrowser`); another scheme by
    /// `dataTransferRestriction`: `allApps` (or unset) yes, `managedApps` only for a known
    /// managed app's scheme, `none` no.
    public func isURLAllowed(scheme: String, isKnownManagedAppScheme: Bool) -> Bool {
        if ["http", "https"].contains(scheme.lowercased()) { return true }
        switch settings["dataTransferRestriction"]?.stringValue {
        case "none": return false
        case "managedApps": return isKnownManagedAppScheme
        default: return true
        }
    }

    /// `canReceiveSharedFile:` / `canReceiveSharedItemProvider:`: may a shared item, owned by
    /// `owner` (nil: no Intune owner), be opened into this policy's owner? By
    /// `inboundDataTransfer`: `allApps` (or unset) yes; `managedApps` only an item a managed
    /// account owns; `none` no.
    public func canReceiveSharedItem(ownedBy owner: AccountID?) -> Bool {
        switch settings["inboundDataTransfer"]?.stringValue {
        case "none": return false
        case "managedApps": return owner != nil && owner == managedAccount
        default: return true
        }
    }

    /// The managed account's list for `key`, nil when not restricted (absent or null).
    private func list(_ key: String) -> Set<String>? {
        guard let values = settings[key]?.arrayValue else { return nil }
        return Set(values.compactMap(\.stringValue))
    }
}
