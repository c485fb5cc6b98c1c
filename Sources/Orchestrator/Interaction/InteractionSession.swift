import Foundation
import Synchronization

/// A sign-in a person completes outside the daemon: in a browser (authorization code with a
/// loopback redirect, RFC 8252) or on another device (device code, RFC 8628).
///
/// The control API creates it (`POST /v1/interactions`), a sign-in uses it (`"user":
/// {"action": "browser" | "deviceCode", "interaction": id}`), and the CLI reads its prompt
/// (`GET /v1/interactions/{id}`: the URL to open, or the verification URI and user code) and
/// may cancel it (`DELETE`, Ctrl-C).
///
/// States: `pending` (no prompt yet) → `prompted` (the URL or code is known; a request that
/// needs the person again, e.g. a remediation's MAM token after a 53005, prompts anew) →
/// `ended` (the request answered); `cancelled` from any state before `ended`. A session is
/// used by one request.
public final class InteractionSession: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case browser, deviceCode
    }

    /// What the person must do.
    public struct Prompt: Sendable, Hashable {
        /// browser: the authorize URL to open.
        public var url: String?
        /// deviceCode: where to enter the code, the code, and the issuer's own wording.
        public var verificationURI: String?
        public var verificationURIComplete: String?
        public var userCode: String?
        public var message: String?
        /// When the prompt stops being usable (epoch milliseconds).
        public var expiresAt: Int64?

        public init(url: String? = nil, verificationURI: String? = nil, verificationURIComplete: String? = nil, userCode: String? = nil, message: String? = nil, expiresAt: Int64? = nil) {
            self.url = url
            self.verificationURI = verificationURI
            self.verificationURIComplete = verificationURIComplete
            self.userCode = userCode
            self.message = message
            self.expiresAt = expiresAt
        }
    }

    public enum State: Sendable, Hashable {
        case pending
        case prompted(Prompt)
        /// The sign-in that used the session finished (whatever its outcome).
        case ended
        case cancelled
    }

    public let id: String
    public let kind: Kind
    /// When it was created (epoch milliseconds, wall clock).
    public let createdAt: Int64
    private let current: Mutex<(state: State, version: Int, used: Bool)>

    public init(id: String, kind: Kind, createdAt: Int64) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        current = Mutex((.pending, 0, false))
    }

    public var state: State { current.withLock { $0.state } }
    /// Grows with every change of ``state``.
    public var version: Int { current.withLock { $0.version } }

    public var isCancelled: Bool { if case .cancelled = state { true } else { false } }

    /// Marks the session used by a sign-in; false when one already used it (or it ended).
    public func claim() -> Bool {
        current.withLock { value in
            guard !value.used, value.state == .pending else { return false }
            value.used = true
            return true
        }
    }

    /// Gives the session back unused: a request refused before it showed anything (a bad
    /// request, a refusal of the machine) leaves it to the next request that names it.
    public func release() {
        current.withLock { value in
            if value.state == .pending { value.used = false }
        }
    }

    /// Publishes a prompt (the first, or a new one for another sign-in of the same request);
    /// false once the session ended or was cancelled.
    @discardableResult
    public func prompt(_ prompt: Prompt) -> Bool {
        var shown = false
        change { state in
            switch state {
            case .pending, .prompted:
                state = .prompted(prompt)
                shown = true
                return true
            case .ended, .cancelled:
                return false
            }
        }
        return shown
    }

    /// Cancels the session (before it ended); true when it was cancelled now or before.
    @discardableResult
    public func cancel() -> Bool {
        var cancelled = false
        change { state in
            switch state {
            case .ended: return false
            case .cancelled: cancelled = true; return false
            case .pending, .prompted: state = .cancelled; cancelled = true; return true
            }
        }
        return cancelled
    }

    /// The sign-in ended (not after a cancel).
    public func end() {
        change { state in
            guard state != .cancelled, state != .ended else { return false }
            state = .ended
            return true
        }
    }

    /// Waits (bounded) until ``version`` differs from `seen`; returns the state then.
    public func waitForChange(after seen: Int, timeout: Duration) async -> State {
        let deadline = ContinuousClock.now + timeout
        while version == seen, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return state
    }

    private func change(_ body: (inout State) -> Bool) {
        current.withLock { value in
            if body(&value.state) { value.version += 1 }
        }
    }

    public static func == (lhs: InteractionSession, rhs: InteractionSession) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "\(kind.rawValue) interaction \(id)" }
}

/// The daemon's open interactions, by id. Sessions older than ``lifetime`` are forgotten.
public final class InteractionSessions: Sendable {
    /// How long a session may stay open (a device code lives 15 minutes at Entra).
    public static let lifetime: Int64 = 30 * 60 * 1000
    /// How many may be open at once (each is a person signing in).
    public static let limit = 64
    private let sessions = Mutex<[String: InteractionSession]>([:])

    public init() {}

    /// A new session, or nil when ``limit`` are open.
    public func create(_ kind: InteractionSession.Kind, now: Int64) -> InteractionSession? {
        sessions.withLock { open in
            open = open.filter { now - $0.value.createdAt < Self.lifetime }
            guard open.count < Self.limit else { return nil }
            let session = InteractionSession(id: UUID().uuidString.lowercased(), kind: kind, createdAt: now)
            open[session.id] = session
            return session
        }
    }

    public func session(_ id: String) -> InteractionSession? { sessions.withLock { $0[id] } }

    /// Cancels every open session (the daemon stops: a person's sign-in ends as cancelled,
    /// and whoever waits on it sees that at once); they stay readable until forgotten.
    public func cancelAll() {
        for session in sessions.withLock({ Array($0.values) }) { _ = session.cancel() }
    }

    /// Cancels and forgets the session; false when there is none.
    public func remove(_ id: String) -> Bool {
        guard let session = sessions.withLock({ $0.removeValue(forKey: id) }) else { return false }
        session.cancel()
        return true
    }
}
