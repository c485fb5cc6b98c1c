import JSON
import Testing
@testable import ComplianceCore

/// Unmanaged data and the managed account's locations (issue 38, C1): an unmanaged policy
/// object restricts nothing of its own, but the managed account's policy still speaks for the
/// locations that account owns.
@Suite struct DataProtectionLocationOwnerTests {
    let alice = try! AccountID("alice@contoso.com")
    let bob = try! AccountID("bob@contoso.com")
    let carol = try! AccountID("carol@contoso.com")
    static let ownedSave: [SaveLocation] = [.oneDriveForBusiness, .sharePoint, .localDrive, .accountDocument]
    static let ownedOpen: [OpenLocation] = [.oneDriveForBusiness, .sharePoint, .localStorage, .accountDocument]

    func unmanaged(_ identity: AccountID?, _ settings: JSONObject) -> DataProtectionPolicy {
        DataProtectionPolicy(identity: identity, managed: alice, settings: settings)
    }

    @Test(arguments: ["managedApps", "none"])
    func incomingUnmanagedDataFollowsTheOwnersInboundRule(_ rule: String) {
        for policy in [unmanaged(bob, ["inboundDataTransfer": .string(rule)]), unmanaged(nil, ["inboundDataTransfer": .string(rule)])] {
            #expect(!policy.isManaged && policy.locationOwner == alice)
            for location in Self.ownedSave {
                #expect(!policy.isSaveToAllowed(location, account: alice), "\(location) owned by alice, inbound \(rule)")
                #expect(policy.isSaveToAllowed(location, account: carol), "\(location) owned by carol: not alice's rule")
                #expect(policy.isSaveToAllowed(location, account: nil), "\(location) of no owner")
            }
            #expect(policy.isSaveToAllowed(.cameraRoll, account: nil) && policy.isSaveToAllowed(.other, account: alice))
        }
    }

    @Test(arguments: ["managedApps", "none"])
    func outgoingDataFollowsTheOwnersTransferRule(_ rule: String) {
        let policy = unmanaged(bob, ["dataTransferRestriction": .string(rule)])
        for location in Self.ownedOpen {
            #expect(!policy.isOpenFromAllowed(location, account: alice), "\(location) owned by alice, transfer \(rule)")
            #expect(policy.isOpenFromAllowed(location, account: bob), "\(location) owned by bob")
        }
        #expect(policy.isOpenFromAllowed(.camera, account: nil) && policy.isOpenFromAllowed(.photos, account: nil))
    }

    @Test func allAppsOrNoRuleLetsUnmanagedDataCross() {
        for settings: JSONObject in [[:], ["inboundDataTransfer": "allApps", "dataTransferRestriction": "allApps"]] {
            let policy = unmanaged(bob, settings)
            #expect(Self.ownedSave.allSatisfy { policy.isSaveToAllowed($0, account: alice) })
            #expect(Self.ownedOpen.allSatisfy { policy.isOpenFromAllowed($0, account: alice) })
        }
    }

    @Test func noManagedAccountMeansNoOwnerAndTheManagedPolicyHasNone() {
        let none = DataProtectionPolicy(identity: bob, managed: nil, settings: nil)
        #expect(none.locationOwner == nil && Self.ownedSave.allSatisfy { none.isSaveToAllowed($0, account: alice) })
        let own = DataProtectionPolicy(identity: alice, managed: alice, settings: ["inboundDataTransfer": "none"])
        #expect(own.locationOwner == nil && own.isManaged)
    }
}
