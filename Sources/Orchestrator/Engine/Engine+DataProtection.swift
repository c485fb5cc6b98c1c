import ComplianceCore
import JSON

/// The data-protection answers of an account's policy object, as the SDK's `IntuneMAMPolicy`
/// gives them to the app (`policyForIdentity:`), decided by ComplianceCore's
/// ``DataProtectionPolicy`` from the live policy.
extension Engine {
    /// What to ask the policy object of an identity.
    public struct DataProtectionQuestion: Sendable, Hashable {
        /// The identity whose policy object answers: a known account, or nil (unmanaged).
        public var identity: String?
        /// The account owning the location (save-to, open-from) or the shared item; nil: unknown
        /// or none, treated as unmanaged (SDK 15.1.0).
        public var owner: String?
        /// A URL scheme for `isURLAllowed`, and whether it is a known managed app's scheme.
        public var scheme: String?
        public var knownManagedAppScheme: Bool

        public init(identity: String?, owner: String? = nil, scheme: String? = nil, knownManagedAppScheme: Bool = false) {
            self.identity = identity
            self.owner = owner
            self.scheme = scheme
            self.knownManagedAppScheme = knownManagedAppScheme
        }
    }

    /// Every answer of the identity's policy object for `question`: `identity`, `managed`,
    /// `owner`, `saveTo` and `openFrom` (each location by the guide's name), `isFileEncryptionRequired`,
    /// `notificationPolicy`, `isAppSharingAllowed`, `canReceiveSharedItem` (an item `owner`
    /// owns), and `isURLAllowed` when a scheme is given. The identity must be an account the
    /// daemon knows (a misspelt one is an error, not an unrestricted answer).
    public func dataProtection(_ question: DataProtectionQuestion) throws(EngineError) -> JSONObject {
        let identity = try question.identity.map { upn throws(EngineError) in try knownAccount(upn) }
        let owner = try question.owner.map { upn throws(EngineError) in try parseAccount(upn) }
        let policy = machine.dataProtectionPolicy(for: identity)
        var answer: JSONObject = [
            "identity": identity.map { .string($0.key) } ?? .null, "managed": .bool(policy.isManaged),
            "owner": owner.map { .string($0.key) } ?? .null,
        ]
        answer["saveTo"] = .object(JSONObject(SaveLocation.allCases.map { ($0.rawValue, .bool(policy.isSaveToAllowed($0, account: owner))) }))
        answer["openFrom"] = .object(JSONObject(OpenLocation.allCases.map { ($0.rawValue, .bool(policy.isOpenFromAllowed($0, account: owner))) }))
        answer["isFileEncryptionRequired"] = .bool(policy.isFileEncryptionRequired)
        answer["notificationPolicy"] = .string(policy.notificationPolicy.rawValue)
        answer["isAppSharingAllowed"] = .bool(policy.isAppSharingAllowed)
        answer["canReceiveSharedItem"] = .bool(policy.canReceiveSharedItem(ownedBy: owner))
        if let scheme = question.scheme {
            answer["isURLAllowed"] = .bool(policy.isURLAllowed(scheme: scheme, isKnownManagedAppScheme: question.knownManagedAppScheme))
        }
        return answer
    }
}
