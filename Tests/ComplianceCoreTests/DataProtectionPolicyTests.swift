import JSON
import Testing
@testable import ComplianceCore

/// The policy object's answers: decision tables of DataProtection/README.md, event in (an
/// identity, a policy), answer out.
@Suite struct DataProtectionPolicyTests {
    let alice = try! AccountID("alice@contoso.com")
    let bob = try! AccountID("bob@contoso.com")
    static let fixture: JSONObject = [
        "fileEncryptionRequired": true, "dataTransferRestriction": "managedApps",
        "saveToLocations": ["oneDriveForBusiness", "sharePoint"], "openFromLocations": ["oneDriveForBusiness", "sharePoint", "camera"],
    ]

    func managed(_ settings: JSONObject = fixture) -> DataProtectionPolicy {
        DataProtectionPolicy(identity: alice, managed: alice, settings: settings)
    }

    @Test func anyOtherIdentityAndNilAreUnrestricted() {
        for policy in [
            DataProtectionPolicy(identity: bob, managed: alice, settings: Self.fixture),
            DataProtectionPolicy(identity: nil, managed: alice, settings: Self.fixture),
            DataProtectionPolicy(identity: alice, managed: nil, settings: nil),
        ] {
            #expect(!policy.isManaged)
            #expect(SaveLocation.allCases.allSatisfy { policy.isSaveToAllowed($0, account: nil) && policy.isSaveToAllowed($0, account: alice) })
            #expect(OpenLocation.allCases.allSatisfy { policy.isOpenFromAllowed($0, account: nil) })
            #expect(!policy.isFileEncryptionRequired && policy.notificationPolicy == .allow && policy.isAppSharingAllowed)
            #expect(policy.isURLAllowed(scheme: "ftp", isKnownManagedAppScheme: false) && policy.canReceiveSharedItem(ownedBy: nil))
        }
    }

    @Test func saveToFollowsTheListAndTheLocationsOwner() {
        let policy = managed()
        let own: [SaveLocation: Bool] = [
            .oneDriveForBusiness: true, .sharePoint: true, .accountDocument: true, .localDrive: false, .cameraRoll: false,
            .box: false, .dropbox: false, .googleDrive: false, .other: false,
        ]
        for (location, allowed) in own {
            #expect(policy.isSaveToAllowed(location, account: alice) == allowed, "\(location) owned by alice")
        }
        // Since 15.1.0 a nil account is unmanaged: no location tied to an account is alice's.
        for location in [SaveLocation.oneDriveForBusiness, .sharePoint, .localDrive, .accountDocument] {
            #expect(!policy.isSaveToAllowed(location, account: nil), "\(location), nil owner")
            #expect(!policy.isSaveToAllowed(location, account: bob), "\(location) owned by bob")
        }
        // Listed locations not tied to an account, whoever is named.
        let wide = managed(["saveToLocations": ["box", "photoLibrary", "localStorage"]])
        #expect(wide.isSaveToAllowed(.box, account: nil) && wide.isSaveToAllowed(.cameraRoll, account: nil))
        #expect(wide.isSaveToAllowed(.localDrive, account: alice) && !wide.isSaveToAllowed(.localDrive, account: nil))
        // No list, or null: not restricted.
        #expect(SaveLocation.allCases.allSatisfy { managed([:]).isSaveToAllowed($0, account: nil) })
        #expect(SaveLocation.allCases.allSatisfy { managed(["saveToLocations": .null]).isSaveToAllowed($0, account: nil) })
        #expect(!managed(["saveToLocations": []]).isSaveToAllowed(.oneDriveForBusiness, account: alice))
    }

    @Test func openFromFollowsTheListAndTheLocationsOwner() {
        let policy = managed()
        #expect(policy.isOpenFromAllowed(.oneDriveForBusiness, account: alice) && !policy.isOpenFromAllowed(.oneDriveForBusiness, account: nil))
        #expect(policy.isOpenFromAllowed(.camera, account: nil) && !policy.isOpenFromAllowed(.photos, account: nil))
        #expect(policy.isOpenFromAllowed(.localStorage, account: alice), "her own container")
        #expect(!policy.isOpenFromAllowed(.localStorage, account: nil) && !policy.isOpenFromAllowed(.localStorage, account: bob))
        #expect(managed(["openFromLocations": ["localStorage"]]).isOpenFromAllowed(.localStorage, account: nil))
        #expect(policy.isOpenFromAllowed(.accountDocument, account: alice) && !policy.isOpenFromAllowed(.accountDocument, account: bob))
        #expect(!policy.isOpenFromAllowed(.other, account: alice))
    }

    @Test func notificationsSharingURLsAndSharedItems() {
        #expect(managed(["notificationRestriction": "block"]).notificationPolicy == .block)
        #expect(managed(["notificationRestriction": "blockOrganizationalData"]).notificationPolicy == .blockOrgData)
        #expect(managed().notificationPolicy == .allow)
        #expect(managed().isAppSharingAllowed && !managed(["dataTransferRestriction": "none"]).isAppSharingAllowed)
        let policy = managed()
        #expect(policy.isURLAllowed(scheme: "HTTPS", isKnownManagedAppScheme: false))
        #expect(policy.isURLAllowed(scheme: "ms-excel", isKnownManagedAppScheme: true) && !policy.isURLAllowed(scheme: "ms-excel", isKnownManagedAppScheme: false))
        #expect(!managed(["dataTransferRestriction": "none"]).isURLAllowed(scheme: "ms-excel", isKnownManagedAppScheme: true))
        #expect(managed(["dataTransferRestriction": "allApps"]).isURLAllowed(scheme: "whatsapp", isKnownManagedAppScheme: false))
        #expect(policy.canReceiveSharedItem(ownedBy: nil))
        let managedOnly = managed(["inboundDataTransfer": "managedApps"])
        #expect(managedOnly.canReceiveSharedItem(ownedBy: alice) && !managedOnly.canReceiveSharedItem(ownedBy: bob) && !managedOnly.canReceiveSharedItem(ownedBy: nil))
        #expect(!managed(["inboundDataTransfer": "none"]).canReceiveSharedItem(ownedBy: alice))
        #expect(managed().isFileEncryptionRequired && !managed([:]).isFileEncryptionRequired)
    }
}
