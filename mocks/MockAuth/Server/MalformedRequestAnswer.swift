import Foundation
import HTTPTypes
import JSON
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP/1 decoder cannot parse with mockauth's JSON error: `400`
/// `invalid_request` naming what was wrong (`431` when the header section is too large),
/// where Hummingbird would send a `400` with an empty body.
///
/// Sits in each connection's pipeline after ``TokenFastLane``, so it sees the requests the
/// router answers and their answers. Which parse error it answers:
/// - between requests, or in the head of the next one: at once, or, while the router still
///   owes answers to earlier requests, after them (a pipelining client gets its answers in
///   order, the error's last);
/// - in the body of a request the router is reading: not here. The error goes on to that
///   request's body, and the route's answer is the same JSON (``RequestLogMiddleware``);
/// - after a request with `Connection: close`: not at all. The router answers that request
///   and closes the connection, as it would have.
///
/// After the answer the connection's output is shut (the client reads the answer and then
/// the end of the stream, not a reset). The decoder refuses every byte after the error, and
/// the connection closes when the client closes its side, or after ``lingerTime``. Malformed
/// requests have no method or path, so they get no line in the request log; the debug log
/// names the parse error (never any of the request's bytes).
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection whose output was shut after the answer waits for the client to close.
    static let lingerTime = TimeAmount.seconds(2)

    private let serverName: String
    private let logger: Logger
    /// Requests passed on to the router whose answer's end has not been written yet.
    private var requestsInFlight = 0
    /// The router has a request's head but not yet its end: an error now is in its body.
    private var routerReadingBody = false
    /// The router was passed a `Connection: close` request: it closes after answering it.
    private var routerCloses = false
    /// A parse error waiting for the router's earlier answers.
    private var pending: HTTPParserError?
    /// The error was answered, passed on or dropped: what follows is the decoder refusing
    /// the bytes after it.
    private var handled = false

    init(serverName: String, logger: Logger) {
        self.serverName = serverName
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestsInFlight += 1
            routerReadingBody = true
            if head.headerFields[.connection] == "close" { routerCloses = true }
        case .body:
            break
        case .end:
            routerReadingBody = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        guard isEnd else { return }
        requestsInFlight = max(0, requestsInFlight - 1)
        if requestsInFlight == 0, let error = pending {
            pending = nil
            answer(error, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !handled else { return }
        guard let parseError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        handled = true
        if routerReadingBody {
            context.fireErrorCaught(error)
        } else if routerCloses {
            logger.debug("malformed request after Connection: close", metadata: ["http.parse_error": "\(parseError.debugDescription)"])
        } else if requestsInFlight > 0 {
            pending = parseError
        } else {
            answer(parseError, context: context)
        }
    }

    /// The status and JSON body answering `error`.
    static func response(to error: HTTPParserError) -> (status: HTTPResponse.Status, body: JSONValue) {
        let tooLarge = error == .headerOverflow
        let description = tooLarge
            ? "The request's header section is larger than this server accepts."
            : "The request is not valid HTTP/1.1: \(error.debugDescription)."
        return (tooLarge ? .requestHeaderFieldsTooLarge : .badRequest, ["error": "invalid_request", "error_description": .string(description)])
    }

    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        logger.debug("malformed request", metadata: ["http.parse_error": "\(error.debugDescription)"])
        let (status, value) = Self.response(to: error)
        let date = PipelineJSONAnswer.imfFixdate(epochSeconds: Int(Date().timeIntervalSince1970))
        let written = context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in
            let context = loopBound.value
            context.close(mode: .output, promise: nil)
            let channel = context.channel
            context.eventLoop.scheduleTask(in: Self.lingerTime) { channel.close(promise: nil) }
        }
        PipelineJSONAnswer.write(value, status: status, date: date, serverName: serverName, closing: true, context: context, promise: written)
    }
}
