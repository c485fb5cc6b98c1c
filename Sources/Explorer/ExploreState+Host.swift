import ComplianceCore

/// The explorer plays the Orchestrator through the one driver (``ComplianceHost/drain()``):
/// it performs the machine's actions on its world. Commits go to the world's durable
/// records (or fail, when the path chose a storage failure), store reads and refresh-token
/// removals are answered from the world's token store, and every job waits in ``pending``
/// (the restart hook in ``restartAsked``) for the event that answers it.
extension ExploreState: ComplianceHost {
    /// What one drain took, for the transition the invariants check; empty between transitions.
    public struct DrainLog: Sendable, Hashable, Codable {
        public var actions: [ComplianceMachine.Action] = []
        /// Which of ``actions`` is the persist that failed.
        public var failedPersistIndex: Int?
    }

    public var driveNow: Instant { world.now }

    public mutating func taken(_ action: ComplianceMachine.Action) {
        drainLog.actions.append(action)
    }

    public mutating func commit(_ changes: ComplianceMachine.Changes) throws {
        if failNextPersist {
            failNextPersist = false
            throw ExploreStorageFailure()
        }
        world.commit(changes, machine: machine)
    }

    public mutating func commitFailed(_ error: any Error) -> ComplianceMachine.Stored {
        // The Engine: every waiting caller gets storage_unavailable; the I/O under way is lost.
        drainLog.failedPersistIndex = drainLog.actions.count - 1
        for ticket in openTickets.keys.sorted() {
            drainLog.actions.append(.reply(ticket, .refused(.init(.storageUnavailable, nil, "storage unavailable"))))
            world.facts.answeredTickets.insert(ticket)
        }
        openTickets = [:]
        pending = []
        return world.durable
    }

    public mutating func reloaded(_ failure: (any Error)?) {
        // The records were written by this machine: they read back (a failure here empties the
        // machine, which the invariants report).
        world.facts.identitiesAtReload = machine.identities
    }

    public mutating func deliver(_ ticket: ComplianceMachine.Ticket, _ reply: ComplianceMachine.Reply) {
        openTickets[ticket] = nil
        world.facts.answeredTickets.insert(ticket)
    }

    public mutating func readTokenCache(_ account: AccountID, scopes: [String], environment: TokenEnvironment) -> ComplianceMachine.StepResult {
        .cache(world.cacheEntry(account, scopes: scopes, environment: environment))
    }

    public mutating func removeRefreshToken(_ account: AccountID, environment: TokenEnvironment) -> ComplianceMachine.StepResult {
        world.tokens[World.TokenKey(key: ComplianceInvariants.storeKey(account), environment: environment)]?.refresh = nil
        return .done
    }

    public mutating func startJob(_ action: ComplianceMachine.Action) {
        if case .restartApp(let account) = action {
            restartAsked = account  // the hook's answer is an event
        } else {
            pending.append(action)
        }
    }
}

/// The storage failure a path chose (``ExploreEvent/storageFails``).
struct ExploreStorageFailure: Error {}
