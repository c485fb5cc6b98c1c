extension ComplianceMachine {
    /// The machine taken apart, field for field, for a checker that holds many machines at
    /// once: `compliance-explore`'s frontier keeps each part in a table of the values met so
    /// far and a machine as the indexes of its parts (SPIN's COLLAPSE compression), so that
    /// the parts two machines share are stored once. `ComplianceMachine(parts: machine.parts)`
    /// is the machine again, every stored field as it was (also what `==` leaves out).
    ///
    /// The parts are opaque outside this module (their fields stay internal): a part can be
    /// compared, hashed, copied and put back, not read.
    public struct Parts: Sendable {
        public var configuration: Configuration
        public var remediation: RemediationStateMachine
        public var remediationSnapshot: RemediationStateMachine.Snapshot
        public var allowed: AllowedAccountsStateMachine
        public var allowedSnapshot: AllowedAccountsStateMachine.Snapshot
        public var restartPending: AccountID?
        public var restartOwedByApp: AccountID?
        public var restartAsked: AccountID?
        public var accounts: [AccountID: AccountState]
        public var settingsOverrides: SettingsOverrides
        public var identities: AppIdentities
        public var volatile: Volatile

        public init(
            configuration: Configuration, remediation: RemediationStateMachine, remediationSnapshot: RemediationStateMachine.Snapshot,
            allowed: AllowedAccountsStateMachine, allowedSnapshot: AllowedAccountsStateMachine.Snapshot, restartPending: AccountID?,
            restartOwedByApp: AccountID?, restartAsked: AccountID?, accounts: [AccountID: AccountState], settingsOverrides: SettingsOverrides,
            identities: AppIdentities, volatile: Volatile
        ) {
            self.configuration = configuration
            self.remediation = remediation
            self.remediationSnapshot = remediationSnapshot
            self.allowed = allowed
            self.allowedSnapshot = allowedSnapshot
            self.restartPending = restartPending
            self.restartOwedByApp = restartOwedByApp
            self.restartAsked = restartAsked
            self.accounts = accounts
            self.settingsOverrides = settingsOverrides
            self.identities = identities
            self.volatile = volatile
        }
    }

    /// The machine's parts (see ``Parts``).
    public var parts: Parts {
        Parts(
            configuration: configuration, remediation: remediation, remediationSnapshot: remediationSnapshot, allowed: allowed,
            allowedSnapshot: allowedSnapshot, restartPending: restartPending, restartOwedByApp: restartOwedByApp, restartAsked: restartAsked,
            accounts: accounts, settingsOverrides: settingsOverrides, identities: identities, volatile: volatile)
    }

    /// The machine whose parts these are.
    public init(parts: Parts) {
        configuration = parts.configuration
        remediation = parts.remediation
        remediationSnapshot = parts.remediationSnapshot
        allowed = parts.allowed
        allowedSnapshot = parts.allowedSnapshot
        restartPending = parts.restartPending
        restartOwedByApp = parts.restartOwedByApp
        restartAsked = parts.restartAsked
        accounts = parts.accounts
        settingsOverrides = parts.settingsOverrides
        identities = parts.identities
        volatile = parts.volatile
    }
}

extension ComplianceMachine.Volatile {
    /// True when every stored field is equal, also those `==` leaves out (the caches, the
    /// identities before the step, the details of the token writes it holds): two volatile
    /// parts `==` takes for one but that differ there must stay two in a table of parts
    /// (their machines would go on differently).
    public func isIdentical(to other: Self) -> Bool {
        self == other && indexes == other.indexes && reconcileEverything == other.reconcileEverything && reconciledList == other.reconciledList
            && reconciledHolder == other.reconciledHolder && identitiesBeforeStep == other.identitiesBeforeStep
            && tokens == other.tokens && Self.identical(held, other.held) && Self.identical(ready, other.ready)
            && Self.identical(parkedReplies, other.parkedReplies)
    }

    /// Actions `==` takes for one, compared also in what a persist's `==` leaves out (its token writes' details).
    private static func identical(_ lhs: [ComplianceMachine.Action], _ rhs: [ComplianceMachine.Action]) -> Bool {
        zip(lhs, rhs).allSatisfy { pair in
            guard case .persist(let left) = pair.0, case .persist(let right) = pair.1 else { return true }
            return left.tokens == right.tokens
        }
    }
}

