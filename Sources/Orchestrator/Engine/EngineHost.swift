import ComplianceCore

/// The Engine's side of the one driver (``ComplianceHost/drain()``, shared with the
/// explorer): it performs the machine's actions with the real store, clients, vault and
/// processes, and decides nothing. Made for one drain on the engine's actor (``Engine/drain()``)
/// and given the machine for it; every engine call runs on that actor (`assumeIsolated`).
struct EngineHost: ComplianceHost {
    let engine: Engine
    var machine: ComplianceMachine

    var driveNow: Instant { engine.clock.now }

    mutating func taken(_ action: ComplianceMachine.Action) {
        engine.logger.trace("machine action", metadata: ["machine.action": "\(action)"])
        if case .restartApp(let account) = action {
            engine.logger.notice("first policy: the app restarts", metadata: [
                "account.id": "\(account)", "restart.askingHook": "\(machine.asksAppToRestart)",
            ])
        }
    }

    mutating func commit(_ changes: ComplianceMachine.Changes) throws {
        try engine.assumeIsolated { engine in
            try engine.commit(changes)
            engine.crashIfArmed(ComplianceMachine.committedPoints(changes))
        }
    }

    mutating func commitFailed(_ error: any Error) throws -> ComplianceMachine.Stored {
        try engine.assumeIsolated { engine in
            engine.refuseWaitingCallers(after: error)
            return try engine.loadRecords()
        }
    }

    mutating func reloaded(_ failure: (any Error)?) {
        engine.assumeIsolated { engine in
            if let failure {
                engine.logger.critical("the store cannot be read back; the engine keeps an empty machine", metadata: ["error.message": "\(failure)"])
            }
            if let saved = engine.savedClock { engine.clock.restore(to: saved) }
        }
    }

    mutating func deliver(_ ticket: ComplianceMachine.Ticket, _ reply: ComplianceMachine.Reply) {
        engine.assumeIsolated { engine in
            // A person's interaction ends with its request; a refusal that showed nothing gives it back.
            let session = engine.callers.users.removeValue(forKey: ticket)?.session
            if case .refused = reply, session?.state == .pending { session?.release() } else { session?.end() }
            engine.callers.waiting.removeValue(forKey: ticket)?.resume(returning: reply)
        }
    }

    mutating func readTokenCache(_ account: AccountID, scopes: [String], environment: TokenEnvironment) -> ComplianceMachine.StepResult {
        engine.assumeIsolated { engine in
            let result = engine.readTokenCache(account, scopes: scopes, partition: engine.issuers.partition(environment))
            if case .cache(let entry) = result { engine.metrics.cacheRead(entry, now: engine.clock.now) }
            return result
        }
    }

    mutating func removeRefreshToken(_ account: AccountID, environment: TokenEnvironment) -> ComplianceMachine.StepResult {
        engine.assumeIsolated { engine in engine.removeRefreshToken(account, partition: engine.issuers.partition(environment)) }
    }

    mutating func startJob(_ action: ComplianceMachine.Action) {
        engine.assumeIsolated { engine in
            switch action {
            case .requestToken(let step, let grant, let account, let scopes, let claims, let interaction, let environment):
                engine.schedule(Job(kind: .grant(
                    step, grant, account, scopes: scopes, claims: claims, user: interaction.flatMap { engine.callers.users[$0] }, environment: environment)))
            case .callMAM(let step, let request, let environment):
                engine.schedule(Job(kind: .mam(step, request, environment: environment)))
            case .removeTokens(let step, let account):
                engine.schedule(Job(kind: .removeTokens(step, account)))
            case .removeVaultFiles(let step, let account):
                engine.schedule(Job(kind: .removeVaultFiles(step, account)))
            case .runAppHook(let step, let account):
                engine.schedule(Job(kind: .runAppHook(step, account)))
            case .encryptPlainFiles(let step, let account):
                engine.schedule(Job(kind: .encryptPlainFiles(step, account)))
            case .restartApp(let account):
                engine.schedule(Job(kind: .askRestartHook(account)))
            case .askApp(let step, let question):
                engine.schedule(Job(kind: .askApp(step, question)))
            case .persist, .readTokenCache, .removeRefreshToken, .reply, .none:
                preconditionFailure("the driver starts no job for \(action)")
            }
        }
    }
}
