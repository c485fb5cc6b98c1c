import Hummingbird
import HummingbirdCore
import NIOCore
import ServiceLifecycle
import Synchronization

/// Holds every connection a server has set up until the server hands it to a handler, and
/// closes the ones it never hands over once the server has stopped.
///
/// swift-nio sets an accepted connection up (its `NIOAsyncChannel`) before the server's accept
/// loop receives it. A connection set up while the server stops may never reach the loop: its
/// `NIOAsyncChannel` is dropped with its writer unfinished, and swift-nio traps the process
/// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#2813, #3481), however
/// gracefully the server was stopped. Held here, such a connection is not dropped; closed here,
/// its writer is finished by the channel's own teardown, and then it may go.
///
/// Use it as a service of the application whose server it guards, before the server: a
/// Hummingbird application stops its services in reverse order, so this one is told to stop
/// once the server has returned, when every connection the loop will ever receive has been
/// handed over. (``HTTPServerBuilder/http1(custody:configuration:)`` makes such a server.)
///
/// States: *serving* (connections are held and released) → *closed* (what is held is closed;
/// a connection set up later is closed at once).
public final class ConnectionCustody: Service, Sendable {
    private struct State {
        var held: [ObjectIdentifier: any ServerChildChannelValue] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    public init() {}

    /// A connection was set up: held until ``release(_:)``; closed at once when the server has stopped.
    func hold(_ value: any ServerChildChannelValue) {
        let late = state.withLock { state -> Bool in
            guard !state.closed else { return true }
            state.held[ObjectIdentifier(value.channel)] = value
            return false
        }
        if late { Self.close(value) }
    }

    /// The server handed the connection to its handler, which owns it from now on.
    func release(_ value: any ServerChildChannelValue) {
        _ = state.withLock { $0.held.removeValue(forKey: ObjectIdentifier(value.channel)) }
    }

    /// Waits for the application's stop, then closes every connection still held.
    public func run() async throws {
        try? await gracefulShutdown()  // returns on graceful shutdown, throws on cancellation: both end the wait
        await closeLeftovers()
    }

    /// Closes every connection the server was given and never handed over; from now on a
    /// connection set up is closed at once.
    public func closeLeftovers() async {
        let leftovers = state.withLock { state in
            state.closed = true
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for value in leftovers {
            value.channel.close(promise: nil)  // fails harmlessly when the peer closed it first
            try? await value.channel.closeFuture.get()
            // Kept until its channel is closed, so its writer is finished before it goes.
            withExtendedLifetime(value) {}
        }
    }

    /// Closes a connection set up after the stop, keeping it until its channel has closed.
    private static func close(_ value: any ServerChildChannelValue) {
        value.channel.close(promise: nil)
        value.channel.closeFuture.whenComplete { _ in withExtendedLifetime(value) {} }
    }
}
