import ComplianceCore
import Glibc
import JSON

/// Events in, and the machine's actions taken through the one driver (``ComplianceHost/drain()``
/// with ``EngineHost``): commits, store reads answered at once, jobs for the service, callers resumed.
extension Engine {
    /// Sends one event to the machine with a new ticket and waits for its reply.
    /// - Parameter user: who answers sign-in pages for this call.
    func submit(user: InteractiveUser? = nil, _ event: (inout ComplianceMachine, ComplianceMachine.Ticket) -> Void) async -> ComplianceMachine.Reply {
        let ticket = callers.newTicket(user: user)
        let reply = await withCheckedContinuation { continuation in
            callers.waiting[ticket] = continuation
            event(&machine, ticket)
            drain()
        }
        return reply
    }

    /// Sends one event and narrows the machine's reply to what `command` answers (`narrow`):
    /// a refusal throws its engine error (``error(_:)``, one table of codes and statuses); any
    /// other reply `narrow` does not take is the machine's fault, named with the reply.
    func ask<Answer>(
        _ command: String, user: InteractiveUser? = nil, _ event: (inout ComplianceMachine, ComplianceMachine.Ticket) -> Void,
        narrow: (ComplianceMachine.Reply) -> Answer?
    ) async throws(EngineError) -> Answer {
        let reply = await submit(user: user, event)
        if case .refused(let refusal) = reply { throw Self.error(refusal) }
        guard let answer = narrow(reply) else { throw EngineError(.internalError, "the machine answered \(command) with \(reply)") }
        return answer
    }

    /// An I/O step's result (from ``run()``'s jobs).
    func completed(_ step: ComplianceMachine.StepID, _ result: ComplianceMachine.StepResult) {
        machine.completed(step, result, now: clock.now)
        drain()
    }

    /// Takes every action of the machine through the one driver (``ComplianceHost/drain()``,
    /// the explorer's too) with ``EngineHost`` performing them; then re-arms the wake-up and
    /// puts changed runtime overrides in force.
    func drain() {
        var host = EngineHost(engine: self, machine: machine)
        host.drain()
        machine = host.machine
        rearmWake()
        applySettingsOverrides()
    }

    /// Rebuilds the issuer client when the machine's runtime overrides changed (the token
    /// cache is per issuer and client id: each environment keeps its own tokens).
    func applySettingsOverrides() {
        guard issuers.apply(machine.settingsOverrides) else { return }
        let configuration = issuer.configuration
        logger.notice("the issuer settings in force changed", metadata: [
            "issuer.authority": "\(configuration.authority.url)", "issuer.client_id": "\(configuration.clientID)",
            "overridden": "\(!machine.settingsOverrides.isEmpty)",
        ])
    }

    /// Hands a job to the service, or, while ``start()`` resumes, to ``start()`` itself.
    func schedule(_ job: Job) {
        if case .resuming(let jobs) = phase {
            phase = .resuming(jobs + [job])
        } else {
            jobSink.yield(job)
        }
    }

    /// A commit failed: nothing of the step happened. Every waiting caller gets
    /// `storage_unavailable` (what it asked is not committed); what the engine remembers of
    /// the token cache is forgotten. (The driver then rebuilds the machine from the store.)
    func refuseWaitingCallers(after error: any Error) {
        logger.critical("commit failed; every waiting call fails and the machine is reloaded from the store", metadata: ["error.message": "\(error)"])
        for (ticket, continuation) in callers.waiting {
            callers.users.removeValue(forKey: ticket)?.session?.end()
            let refusal = ComplianceMachine.Refusal(.storageUnavailable, nil, "the store refused a write (\(error)); nothing of this call was committed. Try again once the disk has room.")
            continuation.resume(returning: .refused(refusal))
        }
        callers.waiting = [:]
        tokenMirror.clear()
    }

    // MARK: - Commit

    /// One transaction: the changed records (and each account's row), the tokens, the
    /// notifications, and the virtual clock when it moved.
    func commit(_ changes: ComplianceMachine.Changes) throws {
        try testHooks.storageFaults.take(.commit)
        let clockNow = clock.mode == .virtual && clock.milliseconds != savedClock ? clock.milliseconds : nil
        try store.writeSync { transaction in
            if let app = changes.app { try transaction.saveAppState(StateKey.machine, app) }
            for account in changes.accounts.keys.sorted() {
                guard let record = changes.accounts[account] else { continue }
                try transaction.saveMachineRecord(account, record: record)
            }
            for entry in changes.tokens {
                let access = entry.cachedAccessToken
                try transaction.saveTokens(CachedTokens(
                    account: entry.account, clientID: issuers.partition(entry.environment), scopes: ScopeSet(entry.scopes),
                    accessToken: access?.accessToken.reveal(), expiresAt: access?.expiresOn.millisecondsSinceEpoch,
                    idToken: entry.tokens.idToken?.reveal(), refreshToken: entry.tokens.refreshToken?.reveal()))
            }
            for event in changes.events {
                let entry = EngineJSON.event(event)
                _ = try transaction.appendEvent(entry.kind, account: entry.account, payload: entry.payload)
            }
            if let clockNow { try transaction.saveAppState(StateKey.clock, .int(clockNow)) }
        }
        if let clockNow { savedClock = clockNow }
        for entry in changes.tokens {
            tokenMirror.saved(
                entry.account, partition: issuers.partition(entry.environment), scopes: ScopeSet(entry.scopes), accessToken: entry.cachedAccessToken,
                refreshToken: entry.tokens.refreshToken)
        }
        for event in changes.events {
            metrics.committed(event)
        }
        for point in ComplianceMachine.committedPoints(changes) { testHooks.commitCounts[point, default: 0] += 1 }
        logger.debug("committed", metadata: ["commit.changes": "\(changes)"])
    }

    func saveVirtualClock() {
        guard clock.mode == .virtual else { return }
        let now = clock.milliseconds
        do {
            try store.writeSync { try $0.saveAppState(StateKey.clock, .int(now)) }
            savedClock = now
        } catch {
            logger.error("cannot store the virtual clock", metadata: ["error.message": "\(error)"])
        }
    }

    // MARK: - Store steps answered at once

    /// Forgets what the engine remembers of the token cache, so the next request reads the
    /// store: for a tool that changed the store's tokens beside the engine (the remediation
    /// benchmark removes an access token between rounds). The engine's own writes never need it.
    public func forgetRememberedTokens() {
        tokenMirror.clear()
    }

    /// The token cache for `account` and `scopes` in `partition` (one issuer and client): from
    /// ``tokenMirror`` when it knows, else from the store (then remembered); `.failed` when the
    /// store cannot be read (logged; nothing remembered; the machine decides what it means).
    func readTokenCache(_ account: AccountID, scopes: [String], partition: String) -> ComplianceMachine.StepResult {
        if let known = tokenMirror.entry(account, partition: partition, scopes: scopes) { return .cache(known) }
        let entry: TokenAcquisitionStateMachine.CacheEntry
        do {
            try testHooks.storageFaults.take(.cacheRead)
            entry = Self.cacheEntry(try store.readSync { try $0.tokens(for: account, clientID: partition, scopes: ScopeSet(scopes)) }, scopes: scopes)
        } catch {
            logger.error("cannot read the token cache", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .failed("\(error)")
        }
        tokenMirror.remember(account, partition: partition, scopes: ScopeSet(scopes), entry)
        return .cache(entry)
    }

    /// A stored row as the machine reads it: the access token with the request's scopes.
    private static func cacheEntry(_ cached: CachedTokens?, scopes: [String]) -> TokenAcquisitionStateMachine.CacheEntry {
        guard let cached else { return .empty }
        var accessToken: TokenSet?
        if let token = cached.accessToken, let expiresAt = cached.expiresAt {
            accessToken = TokenSet(
                accessToken: SecretToken(token), idToken: cached.idToken.map(SecretToken.init),
                expiresOn: Instant(millisecondsSinceEpoch: expiresAt), scopes: scopes)
        }
        return .init(accessToken: accessToken, refreshToken: cached.refreshToken.map(SecretToken.init))
    }

    /// Drops the account's refresh token of one issuer and client (`partition`); another
    /// issuer's stays.
    func removeRefreshToken(_ account: AccountID, partition: String) -> ComplianceMachine.StepResult {
        do {
            try store.writeSync { try $0.deleteRefreshToken(for: account, clientID: partition) }
            tokenMirror.refreshTokenRemoved(account, partition: partition)
            return .done
        } catch {
            logger.error("cannot drop the refresh token", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .failed("\(error)")
        }
    }

    /// A wipe's token step: every token of the account, gone from the database file and its
    /// write-ahead log (secure delete, then a truncating checkpoint).
    func removeTokens(_ account: AccountID) -> ComplianceMachine.StepResult {
        do {
            try testHooks.storageFaults.take(.tokens)
            try store.writeSync { try $0.deleteTokens(for: account) }
            tokenMirror.tokensRemoved(account)
            try store.checkpoint()
            return .done
        } catch {
            logger.error("a wipe cannot remove the tokens; it runs again later", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .failed("the tokens cannot be removed: \(error)")
        }
    }

    // MARK: - Crash points (test hook)

    /// Every `machine:state` a commit can store.
    public static var crashPoints: [String] { ComplianceMachine.crashPoints }

    /// Arms the test hook: the process kills itself (SIGKILL) right after the
    /// `occurrence`-th commit of `point`, leaving ``crashMarkerName`` in the state directory.
    public func armCrash(at point: String, occurrence: Int = 1) throws(EngineError) {
        guard Self.crashPoints.contains(point) else {
            throw EngineError(.badRequest, "unknown crash point \(point); known: \(Self.crashPoints.joined(separator: ", "))")
        }
        guard occurrence >= 1 else { throw EngineError(.badRequest, "occurrence must be at least 1") }
        testHooks.crashPoint = CrashPoint(point: point, remaining: occurrence)
        logger.warning("crash point armed", metadata: ["test.crashPoint": "\(point)", "test.occurrence": "\(occurrence)"])
    }

    /// How often each `machine:state` was committed since start (for crash-point coverage).
    public func committedPoints() -> [String: Int] {
        testHooks.commitCounts
    }

    func crashIfArmed(_ points: [String]) {
        guard var armed = testHooks.crashPoint, points.contains(armed.point) else { return }
        armed.remaining -= 1
        testHooks.crashPoint = armed
        guard armed.remaining == 0 else { return }
        logger.warning("crash point reached: killing the process", metadata: ["test.crashPoint": "\(armed.point)"])
        Self.leaveCrashMarker(armed.point, in: store.stateDirectory)
        kill(getpid(), SIGKILL)
    }

    /// The file a daemon leaves in its state directory right before it kills itself at an
    /// armed crash point, holding that point's name: how a test tells this death from any other.
    public static let crashMarkerName = "crash-point-reached"

    /// Writes ``crashMarkerName`` (the point and a newline) with plain system calls; the
    /// kernel keeps the page after the SIGKILL that follows.
    private static func leaveCrashMarker(_ point: String, in directory: String) {
        let descriptor = open(directory + "/" + crashMarkerName, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let line = Array((point + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Test hook: the next `count` operations of `kind` fail as a full disk would.
    public func failStorage(_ kind: StorageFaults.Kind, count: Int) {
        testHooks.storageFaults.arm(kind, count: count)
        if kind == .cacheRead { tokenMirror.clear() }
        logger.warning("storage faults armed", metadata: ["test.storage": "\(kind.rawValue)", "test.count": "\(count)"])
    }
}

/// Test hook: storage operations that fail on purpose, as on a full disk.
public struct StorageFaults: Sendable {
    /// Which operations fail.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A commit of the machine's changes.
        case commit
        /// A wipe's removal of the account's tokens.
        case tokens
        /// A wipe's removal of the account's vault files.
        case vault
        /// A write of a vault file (`data put`).
        case vaultWrite
        /// A read of the token cache from the store (the engine's memory of the cache is
        /// forgotten when armed, so the next request reads the store).
        case cacheRead

        /// What the disk says when this operation fails.
        var symptom: String {
            switch self {
            case .commit, .tokens, .vault, .vaultWrite: "no space left on device"
            case .cacheRead: "disk I/O error"
            }
        }
    }

    private var remaining: [Kind: Int] = [:]

    mutating func arm(_ kind: Kind, count: Int) {
        remaining[kind] = count
    }

    /// Throws (and counts down) when `kind` is armed.
    mutating func take(_ kind: Kind) throws {
        guard let left = remaining[kind], left > 0 else { return }
        remaining[kind] = left - 1
        throw StorageFault(kind: kind)
    }
}

/// The error a ``StorageFaults`` hook raises.
public struct StorageFault: Error, Sendable, CustomStringConvertible {
    public var kind: StorageFaults.Kind
    public var description: String { "\(kind.symptom) (test hook: \(kind.rawValue))" }
}
