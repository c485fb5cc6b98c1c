import Foundation
import HTTPTypes
import JSON
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP/1 decoder cannot parse with mockauth's JSON error, then closes
/// the connection: `400` `invalid_request` naming what was wrong (`431` when the header
/// section is too large), where Hummingbird would send a `400` with an empty body.
///
/// Sits in each connection's pipeline after ``TokenFastLane``, so it sees the requests the
/// router answers and their answers. A parse error that arrives while the router still owes
/// answers to earlier requests of the connection waits for them: a pipelining client gets
/// its answers in order, the error's answer last. Nothing after the error is read: the
/// decoder stops at it, and the connection closes once the answer is written. Malformed
/// requests have no method or path, so they get no line in the request log; the debug log
/// names the parse error (never any of the request's bytes).
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let serverName: String
    private let logger: Logger
    /// Requests passed on to the router whose answer's end has not been written yet.
    private var requestsInFlight = 0
    /// A parse error waiting for the router's earlier answers.
    private var pending: HTTPParserError?
    /// The error's answer was written; the connection is closing.
    private var answered = false

    init(serverName: String, logger: Logger) {
        self.serverName = serverName
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { requestsInFlight += 1 }
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
        // Once answered, what follows is the decoder refusing the bytes after the error.
        guard !answered else { return }
        guard let parseError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        if requestsInFlight > 0 {
            if pending == nil { pending = parseError }
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
        answered = true
        logger.debug("malformed request", metadata: ["http.parse_error": "\(error.debugDescription)"])
        let (status, value) = Self.response(to: error)
        let date = PipelineJSONAnswer.imfFixdate(epochSeconds: Int(Date().timeIntervalSince1970))
        let written = context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
        PipelineJSONAnswer.write(value, status: status, date: date, serverName: serverName, closing: true, context: context, promise: written)
    }
}
