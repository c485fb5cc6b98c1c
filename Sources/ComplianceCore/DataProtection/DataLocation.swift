/// Where data is saved to (`IntuneMAMSaveLocation`) or opened from (`IntuneMAMOpenLocation`),
/// with the SDK guide's names. Raw values are the names without the `IntuneMAMSaveLocation` /
/// `IntuneMAMOpenLocation` prefix, in lower camel case, as flows and the control API write them.
public enum SaveLocation: String, Sendable, Hashable, CaseIterable, Codable {
    /// Anything else: the Files app, a file picker, a share extension (no listed location).
    case other
    case oneDriveForBusiness
    /// SharePoint online and hybrid on-premises.
    case sharePoint
    /// In the SDK's header, not in the guide.
    case box, dropbox, googleDrive
    /// The app's sandbox only.
    case localDrive
    /// The iOS photo library (the guide: "only `nil` should be passed" as its account).
    case cameraRoll
    /// An organisational location tied to a managed account.
    case accountDocument

    /// The policy's `saveToLocations` value that allows it (the Graph storage-location names),
    /// nil when no value does.
    var policyName: String? {
        switch self {
        case .oneDriveForBusiness: "oneDriveForBusiness"
        case .sharePoint: "sharePoint"
        case .box: "box"
        case .localDrive: "localStorage"
        case .cameraRoll: "photoLibrary"
        case .other, .dropbox, .googleDrive, .accountDocument: nil
        }
    }
}

/// See ``SaveLocation``.
public enum OpenLocation: String, Sendable, Hashable, CaseIterable, Codable {
    case other
    case oneDriveForBusiness
    case sharePoint
    /// Only new images taken by the camera.
    case camera
    /// The app's sandbox only.
    case localStorage
    /// Only existing images in the iOS photo library.
    case photos
    case accountDocument

    /// The policy's `openFromLocations` value that allows it, nil when no value does.
    var policyName: String? {
        switch self {
        case .oneDriveForBusiness: "oneDriveForBusiness"
        case .sharePoint: "sharePoint"
        case .camera: "camera"
        case .photos: "photoLibrary"
        case .localStorage: "localStorage"
        case .other, .accountDocument: nil
        }
    }
}

/// `IntuneMAMNotificationPolicy`: what the app may show in a notification for the account.
public enum NotificationPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Notifications as the app writes them.
    case allow
    /// Only static notifications without organisational details ("You've got mail").
    case blockOrgData
    /// No notification.
    case block
}
