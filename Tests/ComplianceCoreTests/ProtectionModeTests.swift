import JSON
import Testing
@testable import ComplianceCore

/// `protect:identity:` and re-protection decisions: an identity and a policy in, a mode out.
@Suite struct ProtectionModeTests {
    let alice = try! AccountID("alice@contoso.com")
    let bob = try! AccountID("bob@contoso.com")

    func policy(_ identity: AccountID?, required: Bool) -> DataProtectionPolicy {
        DataProtectionPolicy(identity: identity, managed: alice, settings: ["fileEncryptionRequired": .bool(required)])
    }

    @Test func protectEncryptsOnlyForTheManagedIdentity() {
        // The guide: managed → encrypted, whatever fileEncryptionRequired says.
        #expect(policy(alice, required: true).bufferProtection == .encrypted)
        #expect(policy(alice, required: false).bufferProtection == .encrypted)
        // Unmanaged, and no user at all: the identity header alone.
        #expect(policy(bob, required: true).bufferProtection == .identityHeader)
        #expect(policy(nil, required: true).bufferProtection == .identityHeader)
        #expect(DataProtectionPolicy(identity: alice, managed: nil, settings: nil).bufferProtection == .identityHeader)
    }

    @Test func filesFollowFileEncryptionRequired() {
        #expect(policy(alice, required: true).fileProtection == .encrypted)
        #expect(policy(alice, required: false).fileProtection == .identityHeader)
        #expect(policy(bob, required: true).fileProtection == .identityHeader)
    }

    @Test func reprotectionEncryptsPlainFilesOnlyWhenRequired() {
        let files: [String: ProtectionMode] = ["b.txt": .identityHeader, "a.txt": .identityHeader, "c.txt": .encrypted]
        #expect(policy(alice, required: true).filesToEncrypt(files) == ["a.txt", "b.txt"])
        // Lifted: encrypted files stay encrypted until rewritten; nothing is decrypted.
        #expect(policy(alice, required: false).filesToEncrypt(files) == [])
        // An unmanaged account's files are never encrypted by the managed account's policy.
        #expect(policy(bob, required: true).filesToEncrypt(files) == [])
        #expect(policy(alice, required: true).filesToEncrypt([:]) == [])
    }
}
