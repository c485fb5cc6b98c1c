import ComplianceCore
import Synchronization

/// The engine's time source. ``real`` follows the system clock; ``virtual`` starts where it
/// is told and moves only through ``advance(to:)`` (the control API's clock advance), so the
/// 24-hour retry and the 8-hour check-in can be exercised in seconds.
public final class EngineClock: Sendable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case real, virtual
    }

    public let mode: Mode
    private let virtualNow: Mutex<Int64>
    private let wall: @Sendable () -> EpochMillis

    /// - Parameters:
    ///   - start: the virtual clock's initial time (ignored by the real clock).
    ///   - wall: the system clock, replaceable in tests.
    public init(mode: Mode, start: EpochMillis? = nil, wall: @escaping @Sendable () -> EpochMillis = OrchestratorStore.wallClock) {
        self.mode = mode
        self.wall = wall
        self.virtualNow = Mutex(start ?? wall())
    }

    /// The current time.
    public var now: Instant {
        Instant(millisecondsSinceEpoch: milliseconds)
    }

    /// The current time in milliseconds since the epoch.
    public var milliseconds: EpochMillis {
        switch mode {
        case .real: wall()
        case .virtual: virtualNow.withLock { $0 }
        }
    }

    /// The readings an id_token's lifetime is checked at (``IDTokenClaims/Times``, which
    /// decides): the wall clock, and the virtual time when this clock is virtual.
    public var idTokenTimes: IDTokenClaims.Times {
        switch mode {
        case .real: IDTokenClaims.Times(wall: wall() / 1000)
        case .virtual: IDTokenClaims.Times(wall: wall() / 1000, virtual: virtualNow.withLock { $0 } / 1000)
        }
    }

    /// Sets the virtual clock to a time it stored before a restart (even if that is earlier
    /// than the wall clock it started from). No effect on the real clock.
    public func restore(to time: EpochMillis) {
        guard mode == .virtual else { return }
        virtualNow.withLock { $0 = time }
    }

    /// Moves the virtual clock forward to `time` (never backwards). No effect on the real clock.
    public func advance(to time: EpochMillis) {
        guard mode == .virtual else { return }
        virtualNow.withLock { $0 = max($0, time) }
    }
}
