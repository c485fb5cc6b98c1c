import ComplianceCore

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

    /// Every answer of the identity's policy object for `question` (``DataProtectionAnswer``).
    /// The identity must be an account the daemon knows (a misspelt one is an error, not an
    /// unrestricted answer).
    public func dataProtection(_ question: DataProtectionQuestion) throws(EngineError) -> DataProtectionAnswer {
        let identity = try question.identity.map { upn throws(EngineError) in try knownAccount(upn) }
        let owner = try question.owner.map { upn throws(EngineError) in try parseAccount(upn) }
        let policy = machine.dataProtectionPolicy(for: identity)
        return DataProtectionAnswer(
            identity: identity, managed: policy.isManaged, owner: owner,
            saveTo: SaveLocation.allCases.map { ($0, policy.isSaveToAllowed($0, account: owner)) },
            openFrom: OpenLocation.allCases.map { ($0, policy.isOpenFromAllowed($0, account: owner)) },
            isFileEncryptionRequired: policy.isFileEncryptionRequired, notificationPolicy: policy.notificationPolicy,
            isAppSharingAllowed: policy.isAppSharingAllowed, canReceiveSharedItem: policy.canReceiveSharedItem(ownedBy: owner),
            isURLAllowed: question.scheme.map { policy.isURLAllowed(scheme: $0, isKnownManagedAppScheme: question.knownManagedAppScheme) })
    }
}

/// The answers of an identity's policy object (``Engine/dataProtection(_:)``): `identity`,
/// `managed`, `owner`, `saveTo` and `openFrom` (each location by the guide's name, in order),
/// `isFileEncryptionRequired`, `notificationPolicy`, `isAppSharingAllowed`,
/// `canReceiveSharedItem` (an item `owner` owns), and `isURLAllowed` when a scheme was asked.
public struct DataProtectionAnswer: Sendable {
    public var identity: AccountID?
    public var managed: Bool
    public var owner: AccountID?
    public var saveTo: [(SaveLocation, Bool)]
    public var openFrom: [(OpenLocation, Bool)]
    public var isFileEncryptionRequired: Bool
    public var notificationPolicy: NotificationPolicy
    public var isAppSharingAllowed: Bool
    public var canReceiveSharedItem: Bool
    public var isURLAllowed: Bool?
}
