import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The request context of every mockauth route.
///
/// Carries the connection (fault injection resets or closes it) and a note that handlers
/// fill in for the request log (grant type, user) without ever holding secrets.
public struct MockRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel
    /// What the handler learned, read by the request-log middleware after it returns.
    let note: RequestNotes

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.note = NIOLockedValueBox(RequestNote())
    }

    /// Larger bodies are refused with 413 before they are parsed.
    public var maxUploadSize: Int { MockAuthLimits.maxRequestBodyBytes }

    /// The path parameter `name`, percent-decoded as a real server would
    /// (`alice%40contoso.com` is `alice@contoso.com`). A segment that is not valid
    /// percent-encoding is returned as it is, so the route's own "unknown tenant / user"
    /// answer names it. Throws (like `parameters.require`) when the route has no such parameter.
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }
}

/// Where a request's handler notes what the request log shows of it.
typealias RequestNotes = NIOLockedValueBox<RequestNote>

extension NIOLockedValueBox where Value == RequestNote {
    /// Records the grant type and user for the request log.
    func record(grantType: String? = nil, user: String? = nil) {
        withLockedValue { note in
            if let grantType { note.grantType = grantType }
            if let user { note.user = user.lowercased() }
        }
    }
}

/// Log-safe facts about a request, filled in by handlers.
struct RequestNote: Sendable {
    var grantType: String?
    var user: String?
    var fault: String?
    /// A fault broke the connection instead of answering (`reset`, `close`): no status was sent.
    var unanswered = false
}

/// Size caps applied to every request.
public enum MockAuthLimits {
    /// Request bodies over this many bytes get 413 and an OAuth-style JSON error.
    public static let maxRequestBodyBytes = 64 * 1024
}
