/// Unmanaged data and the managed account's locations (issue 38, C1).
///
/// An unmanaged identity's (or no identity's) policy object is "unmanaged with unrestricted
/// policy settings": its own policy restricts nothing. The location it saves to or opens from
/// may still belong to the managed account, whose policy then speaks for that location:
/// - save (the guide, "Handling save-to scenarios"): "The account owning the destination
///   location might still have policies restricting incoming unmanaged data." Unmanaged data
///   saved into the managed account's OneDrive for Business, SharePoint, sandbox storage
///   (LocalDrive) or account documents is incoming data for it: allowed by its
///   `inboundDataTransfer` (`allApps` or unset yes; `managedApps` no, the data is not a
///   managed source's; `none` no).
/// - open ("Handling open-from scenarios"): "The account owning the data might still have
///   policies restricting the destinations of outgoing data transfers." Opening the managed
///   account's OneDrive, SharePoint, sandbox storage or account documents into an unmanaged
///   identity sends its data out: allowed by its `dataTransferRestriction` (`allApps` or unset
///   yes; `managedApps` no, the receiver is unmanaged; `none` no).
/// Locations no account owns (the photo library, the camera, Box, Other, …), and locations of
/// any other account, stay unrestricted.
extension DataProtectionPolicy {
    /// `isSaveToAllowedForLocation:withAccount:` of an unmanaged policy object.
    func unmanagedSaveAllowed(_ location: SaveLocation, account: AccountID?) -> Bool {
        guard let owner = locationOwner, account == owner else { return true }
        switch location {
        case .oneDriveForBusiness, .sharePoint, .localDrive, .accountDocument:
            return ownerAllows("inboundDataTransfer")
        case .box, .cameraRoll, .dropbox, .googleDrive, .other:
            return true
        }
    }

    /// `isOpenFromAllowedForLocation:withAccount:` of an unmanaged policy object.
    func unmanagedOpenAllowed(_ location: OpenLocation, account: AccountID?) -> Bool {
        guard let owner = locationOwner, account == owner else { return true }
        switch location {
        case .oneDriveForBusiness, .sharePoint, .localStorage, .accountDocument:
            return ownerAllows("dataTransferRestriction")
        case .camera, .photos, .other:
            return true
        }
    }

    /// Whether the location owner's `key` (`allApps`, `managedApps`, `none`) lets unmanaged
    /// data cross: only `allApps`, or no setting.
    private func ownerAllows(_ key: String) -> Bool {
        switch locationOwnerSettings[key]?.stringValue {
        case "none", "managedApps": false
        default: true
        }
    }
}
