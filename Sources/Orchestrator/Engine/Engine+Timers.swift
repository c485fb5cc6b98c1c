import ComplianceCore
import JSON

/// Timers: absolute due times in the store; the real clock wakes a task at the next due
/// time, the virtual clock fires them only when advanced.
extension Engine {
    /// Re-arms the real-clock wake-up for the earliest timer (no effect on a virtual clock).
    func rearmTimers() {
        guard clock.mode == .real, started else { return }
        timerTask?.cancel()
        guard let next = (try? store.readSync({ try $0.nextScheduleDue() })) ?? nil else {
            timerTask = nil
            return
        }
        let delay = max(0, next - clock.milliseconds)
        timerTask = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(delay))
            guard !Task.isCancelled, let self else { return }
            await self.timerWokeUp()
        }
    }

    private func timerWokeUp() async {
        timerTask = nil
        _ = await fireDueTimers(upTo: clock.milliseconds)
        rearmTimers()
    }

    /// Fires every timer due at or before `time`, in due order, each to the end of its work.
    func fireDueTimers(upTo time: EpochMillis) async -> [FiredTimer] {
        var fired: [FiredTimer] = []
        while let task = (try? store.readSync({ try $0.firstDueSchedule(at: time) })) ?? nil {
            clock.advance(to: task.dueAt)
            guard (try? store.writeSync({ try $0.removeSchedule(id: task.id) })) == true else {
                logger.error("cannot remove a fired timer; stopping this round", metadata: ["timer.id": "\(task.id)"])
                break
            }
            saveVirtualClock()
            fired.append(FiredTimer(timer: task.kind.rawValue, account: task.account, dueAt: task.dueAt))
            record("timerFired", account: task.account, ["timer": .string(task.kind.rawValue), "dueAt": .int(task.dueAt)])
            guard let account = task.account, let timer = Self.timer(for: task.kind) else { continue }
            await runEnrollment(account, enrollmentStep(account) { $0.timerFired(timer, now: clock.now) })
        }
        return fired
    }

    /// Moves the virtual clock `seconds` forward, firing every timer due on the way in order;
    /// returns after their work settled.
    public func advanceClock(seconds: Int64) async throws(EngineError) -> (from: EpochMillis, now: EpochMillis, fired: [FiredTimer]) {
        guard clock.mode == .virtual else {
            throw EngineError(.clockNotVirtual, "the daemon runs on the real clock; start it with --clock virtual to advance time")
        }
        guard seconds >= 0, seconds <= 10 * 365 * 86_400 else {
            throw EngineError(.badRequest, "seconds must be between 0 and 315360000, got \(seconds)")
        }
        let from = clock.milliseconds
        let target = from + seconds * 1000
        let fired = await fireDueTimers(upTo: target)
        clock.advance(to: target)
        saveVirtualClock()
        record("clockAdvanced", account: nil, ["from": .int(from), "to": .int(target)])
        return (from, target, fired)
    }

    func saveVirtualClock() {
        guard clock.mode == .virtual else { return }
        let now = clock.milliseconds
        try? store.writeSync { try $0.saveAppState(StateKey.clock, .int(now)) }
    }
}
