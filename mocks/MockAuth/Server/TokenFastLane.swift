import Foundation
import HTTPTypes
import JSON
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Answers `POST /{tenant}/oauth2/v2.0/token` on the connection's event loop, in the channel
/// pipeline, without the router's task and middleware: the token endpoint is what load tests
/// hit, and its answer needs no waiting (``MockState`` is a lock; signing is CPU work).
///
/// Sits in each connection's Hummingbird pipeline after the HTTP/1 codec
/// (``HTTPServerBuilder/pinnedHTTP1(tls:handlers:)``). For a request it takes it does what the
/// router would: the same ``Issuer/tokenResponse(tenant:form:head:notes:)``, the same JSON
/// answer and headers (`Date`, `Server` as Hummingbird adds them), the same request-log line
/// (``RequestLogMiddleware/record(method:rawPath:route:status:notes:state:logger:)``).
///
/// Every other request passes through to Hummingbird untouched, and so does a token request
/// the router must see: while a fault is armed (faults apply in the router's middleware),
/// while an earlier request of the connection is still being answered by the router
/// (answers keep the order of a pipelining client), once the router was passed a request
/// with `Connection: close` (Hummingbird answers nothing after it; a guard only: it was
/// not seen to read the connection further), with `Connection: close` itself (Hummingbird's
/// test: exactly `close`; an HTTP/1.0 request without keep-alive has it, ``HTTP10Semantics``),
/// without a Content-Length or with more than
/// ``MockAuthLimits/maxRequestBodyBytes``, with an `Expect` header, with a path the router
/// would have to decode (`%`), or with a tenant segment the router resolves to one of its
/// own groups (`/_admin`, `/mam`: a 404 there).
///
/// Hummingbird's connection-state handler never sees the requests answered here, so an idle
/// timeout on the HTTP channel would count a busy connection as idle; mockauth sets none.
final class TokenFastLane: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let issuer: Issuer
    private let serverName: String
    private let logger: Logger
    /// Requests passed to Hummingbird whose answer's end has not been written yet.
    private var routerRequestsInFlight = 0
    /// The router was passed a `Connection: close` request: nothing after it is answered.
    private var routerOnly = false
    /// The token request being read (its head, path without query, tenant segment), and its body so far.
    private var taken: (head: HTTPRequest, path: String, tenant: String)?
    private var body = ByteBuffer()
    /// A graceful shutdown asked while a taken request was being read: passed on once answered.
    private var quiescePending = false
    private var date = (second: -1, text: "")

    init(issuer: Issuer, serverName: String, logger: Logger) {
        self.issuer = issuer
        self.serverName = serverName
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let (path, tenant) = takes(head) {
                taken = (head, path, tenant)
                body.clear()
            } else {
                routerRequestsInFlight += 1
                if Self.closes(head) { routerOnly = true }
                context.fireChannelRead(data)
            }
        case .body(let part):
            guard taken != nil else { return context.fireChannelRead(data) }
            body.writeImmutableBuffer(part)
        case .end:
            guard let (head, path, tenant) = taken else { return context.fireChannelRead(data) }
            taken = nil
            answer(head: head, path: path, tenant: tenant, context: context)
            if quiescePending {
                quiescePending = false
                context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The router's answers pass here, and MalformedRequestAnswer's (after which the
        // connection closes); this handler writes its own from its context.
        if case .end = unwrapOutboundIn(data) { routerRequestsInFlight = max(0, routerRequestsInFlight - 1) }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, taken != nil {
            quiescePending = true
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The request's path (without query) and tenant segment when this handler answers it;
    /// `nil` passes it on.
    private func takes(_ head: HTTPRequest) -> (path: String, tenant: String)? {
        guard !routerOnly, routerRequestsInFlight == 0, head.method == .post, let target = head.path,
            !target.utf8.contains(UInt8(ascii: "%"))
        else { return nil }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 5, segments[0].isEmpty, !segments[1].isEmpty, !Self.routerGroups.contains(segments[1]),
            segments[2] == "oauth2", segments[3] == "v2.0", segments[4] == "token",
            head.headerFields[.expect] == nil, head.headerFields[.origin] == nil,
            !Self.closes(head),
            let length = head.declaredBodyLength, (0...MockAuthLimits.maxRequestBodyBytes).contains(length),
            !issuer.state.hasPendingFaults
        else { return nil }
        return (String(path), String(segments[1]))
    }

    /// True when Hummingbird closes the connection after answering `head` (its own test).
    static func closes(_ head: HTTPRequest) -> Bool {
        head.headerFields[.connection] == "close"
    }

    /// First path segments the router resolves to its own route groups, never to `:tenant`.
    private static let routerGroups: Set<Substring> = [Substring(AdminRoutes.pathRoot), Substring(MAMService.pathRoot)]

    /// Answers a taken request as the router and its middleware would, and logs it (before
    /// the answer leaves, as the router does, so a client that got it finds the log line).
    private func answer(head: HTTPRequest, path: String, tenant: String, context: ChannelHandlerContext) {
        let notes = RequestNotes(RequestNote())
        let status: HTTPResponse.Status
        let value: JSONValue
        do {
            let form = try FormParameters.parse(body: Array(body.readableBytesView))
            value = try issuer.tokenResponse(tenant: tenant, form: form, head: head, notes: notes)
            status = .ok
        } catch let error as OAuthError {
            value = error.body(answering: head)
            status = error.status
        } catch {
            logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            value = RequestLogMiddleware.serverError
            status = .internalServerError
        }
        body.clear()
        issuer.state.pipelineTokenAnswers.add(1, ordering: .relaxed)
        RequestLogMiddleware.record(
            method: head.method, rawPath: path, route: "token", status: status, notes: notes, state: issuer.state, logger: logger)
        PipelineJSONAnswer.write(value, status: status, date: httpDate(), serverName: serverName, context: context)
    }

    /// The `Date` header (RFC 9110 IMF-fixdate), formatted once per second per connection.
    private func httpDate() -> String {
        let now = Int(Date().timeIntervalSince1970)
        if now != date.second { date = (now, PipelineJSONAnswer.imfFixdate(epochSeconds: now)) }
        return date.text
    }
}
