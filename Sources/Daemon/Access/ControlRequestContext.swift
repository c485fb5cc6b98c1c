import Hummingbird
import NIOCore

/// The request context of the control API: Hummingbird's basic context plus the connection,
/// so the peer check can ask the kernel who is on the other end.
public struct ControlRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
