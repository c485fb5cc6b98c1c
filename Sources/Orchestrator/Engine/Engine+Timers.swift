import ComplianceCore
import JSON

/// Timers: the machine knows when each account's retry or check-in is due
/// (``ComplianceMachine/nextDueTimer()``). The real clock wakes the service then; the virtual
/// clock fires them only when advanced.
extension Engine {
    /// Asks the service to wake for the earliest timer when it is earlier than the wake-up
    /// already asked for (real clock only).
    func rearmWake() {
        guard clock.mode == .real, case .serving = phase, let due = machine.nextDueTimer()?.at.millisecondsSinceEpoch else { return }
        if let next = wake.next, next.at <= due { return }
        wake.generation += 1
        wake.next = (due, wake.generation)
        jobSink.yield(Job(kind: .wake(at: due, generation: wake.generation)))
    }

    /// A wake-up: fires every timer due by now (a stale wake-up, replaced by an earlier one, does nothing).
    func woke(_ generation: Int) async {
        guard wake.next?.generation == generation else { return }
        wake.next = nil
        _ = try? await fireDueTimers(upTo: clock.milliseconds)
        rearmWake()
    }

    /// Fires every timer due at or before `time`, in due order, each to the end of its work;
    /// the virtual clock moves to each due time as it fires. A timer whose work the store
    /// refused stops the round (`storage_unavailable`), with the clock where it was.
    func fireDueTimers(upTo time: EpochMillis) async throws(EngineError) -> [FiredTimer] {
        var fired: [FiredTimer] = []
        while let due = machine.nextDueTimer(), due.at.millisecondsSinceEpoch <= time, !clockAdvancesEnded.withLock({ $0 }) {
            let before = clock.milliseconds
            clock.advance(to: due.at.millisecondsSinceEpoch)
            let timer = ComplianceEvent.timerName(due.timer)
            do {
                try await ask("a timer") { machine, ticket in
                    machine.timerFired(due.account, due.timer, ticket: ticket, now: clock.now)
                } narrow: {
                    if case .settled = $0 { () } else { nil }
                }
            } catch {
                clock.restore(to: before)
                throw error
            }
            fired.append(FiredTimer(timer: timer, account: due.account, dueAt: due.at.millisecondsSinceEpoch))
        }
        return fired
    }

    /// Moves the virtual clock `seconds` forward, firing every timer due on the way in order;
    /// returns after their work settled. A daemon told to stop meanwhile ends the advance
    /// after the timer in progress: the clock stays there and the answer's `now` says so. One
    /// advance at a time: another one meanwhile is refused (`conflict`). The
    /// clock moves only as far as the timers' work was committed: a refused commit answers `storage_unavailable` with the clock before that timer
    /// (or, when the move's own `clockAdvanced` is refused, where the timers left it).
    public func advanceClock(seconds: Int64) async throws(EngineError) -> (from: EpochMillis, now: EpochMillis, fired: [FiredTimer]) {
        guard clock.mode == .virtual else {
            throw EngineError(.clockNotVirtual, "the daemon runs on the real clock; start it with --clock virtual to advance time")
        }
        guard seconds >= 0, seconds <= 10 * 365 * 86_400 else {
            throw EngineError(.badRequest, "seconds must be between 0 and 315360000, got \(seconds)")
        }
        // One at a time: a second advance starting where the first one happens to be would
        // skip the timers due in the first one's interval.
        guard !wake.advancing else {
            throw EngineError(.conflict, "another clock advance is under way; advance again once it has answered")
        }
        wake.advancing = true
        defer { wake.advancing = false }
        let from = clock.milliseconds
        let target = from + seconds * 1000
        let fired = try await fireDueTimers(upTo: target)
        let afterTimers = clock.milliseconds
        // A stop ended the advance early: the clock stays where the last timer left it.
        let reached = clockAdvancesEnded.withLock({ $0 }) ? afterTimers : target
        clock.advance(to: reached)
        // The move is committed with its clockAdvanced (the commit stores the clock): a refused
        // commit leaves the clock where the timers' work left it.
        let reply = await submit { machine, ticket in
            machine.clockAdvanced(from: Instant(millisecondsSinceEpoch: from), to: Instant(millisecondsSinceEpoch: reached), ticket: ticket)
        }
        if case .refused(let refusal) = reply {
            clock.restore(to: afterTimers)
            throw Self.error(refusal)
        }
        saveVirtualClock()
        return (from, reached, fired)
    }
}
