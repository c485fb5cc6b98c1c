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
/// - between requests, or in the head of the next one: itself, at once or, while the router
///   still owes answers to earlier requests, after them (a pipelining client gets its
///   answers in order, the error's last);
/// - in the body of a request the router is reading: the error goes on to that request's
///   body. A route that reads it answers the same JSON (``RequestLogMiddleware``); when the
///   route answered without reading it, Hummingbird's own empty `400` that follows is
///   replaced by this JSON;
/// - bytes after a request that closes the connection (`.closedConnection`): none.
///
/// It also ends a connection whose last request (`Connection: close`, or HTTP/1.0 without
/// keep-alive, ``HTTP10Semantics``) was answered before its body was all read, a `413` or a
/// `404` say: Hummingbird then stops reading, and a client still sending its body blocked
/// until its own timeout. The rest of the body is read and dropped as below.
///
/// Once the answers are out, the connection's output is shut: the client reads them and
/// then the end of the stream, not a reset. Whatever the client still sends is read and
/// dropped (the decoder refuses it), and the connection closes when the client closes its
/// side, after ``lingerTime`` without its bytes, or after ``maxLingerTime``; a graceful shutdown
/// meanwhile does not cut that short. Malformed requests have no method or path, so they get no
/// line in the request log (a bad body is its request's line); the debug log names the parse
/// error, never any of the request's bytes.
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection whose output was shut waits for the client's next bytes (or its
    /// close) before it closes; a client that keeps sending is read on, up to ``maxLingerTime``.
    static let lingerTime = TimeAmount.seconds(5)
    /// The longest a connection whose output was shut is read on.
    static let maxLingerTime = TimeAmount.seconds(60)

    private let serverName: String
    private let logger: Logger
    /// Requests passed on to the router whose answer's end has not been written yet.
    private var requestsInFlight = 0
    /// The router has a request's head but not yet its end: an error now is in its body.
    private var routerReadingBody = false
    /// The router was passed a request that closes the connection after its answer.
    private var closingRequest = false
    /// A graceful shutdown's quiesce event was held back while a closing request was answered:
    /// the connection's close after that answer is bounded here (Hummingbird never saw it).
    private var quiesceHeld = false

    /// What became of the connection's parse error.
    private enum Fate {
        /// None yet.
        case none
        /// To be answered once the router's answers are out.
        case answerAfterRouter(HTTPParserError)
        /// Passed on to the router's request; Hummingbird's own answer to it is replaced.
        case passedOn(HTTPParserError)
        /// Bytes after a closing request: no answer, the connection ends after the router's.
        case dropped
        /// Answered: the output is shut.
        case answered
    }
    private var fate = Fate.none
    /// Hummingbird's empty answer to a passed-on error is being replaced.
    private var replacing = false
    /// The connection is ending: what the client sends is read and dropped until it closes
    /// or sends nothing for ``lingerTime`` (at most ``maxLingerTime``).
    private var lingering: Scheduled<Void>?
    /// When the lingering began.
    private var lingerStart = NIODeadline.now()

    init(serverName: String, logger: Logger) {
        self.serverName = serverName
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The rest of a body after the connection's last answer: nobody reads it.
        if case .answered = fate { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestsInFlight += 1
            routerReadingBody = true
            if TokenFastLane.closes(head) { closingRequest = true }
        case .body:
            break
        case .end:
            routerReadingBody = false
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Hummingbird stops reading once its stream has ended; drain what the client sends.
        if lingering != nil {
            scheduleLingerClose(context: context)
            context.read()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .passedOn(let error) = fate, requestsInFlight == 0 {
            // An answer with no request left to answer: Hummingbird's own to the parse error.
            if case .head = part { replacing = true }
            guard replacing else { return context.write(data, promise: promise) }
            promise?.succeed(())
            if case .end = part {
                replacing = false
                answer(error, context: context)
            }
            return
        }
        context.write(data, promise: promise)
        guard case .end = part else { return }
        requestsInFlight = max(0, requestsInFlight - 1)
        guard requestsInFlight == 0 else { return }
        switch fate {
        case .answerAfterRouter(let error): answer(error, context: context)
        case .dropped: finish(context: context)
        // Hummingbird shuts the output after its answer (replaced above when it is its own).
        case .passedOn: linger(context: context)
        // The last answer went before its request's body was read: read the rest and drop it.
        case .none where closingRequest && routerReadingBody: finish(context: context)
        // Hummingbird shuts the output after a closing request's answer; a shutdown waits for
        // the close, so it comes at the latest after the linger.
        case .none where quiesceHeld: linger(context: context)
        case .none, .answered: break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            // The decoder refusing the bytes after its error is expected; anything else goes on.
            if case .none = fate { return context.fireErrorCaught(error) }
            if error is ByteToMessageDecoderError { return }
            return context.fireErrorCaught(error)
        }
        guard case .none = fate else { return }  // the decoder repeats some errors
        if parseError == .closedConnection {
            logger.debug("bytes after a closing request dropped")
            fate = .dropped
            if requestsInFlight == 0 { finish(context: context) }
        } else if routerReadingBody {
            fate = .passedOn(parseError)
            context.fireErrorCaught(error)
            // The route answered already (without reading the body): no write will follow.
            if requestsInFlight == 0 { linger(context: context) }
        } else if requestsInFlight > 0 {
            fate = .answerAfterRouter(parseError)
        } else {
            answer(parseError, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A graceful shutdown makes Hummingbird close the connection at once when it owes no
        // answer, or right after the one it owes; a client still sending then gets a reset and
        // may lose the answers it has not read yet. A connection whose end is already decided
        // here ends as decided instead: answers out, output shut, lingering (bounded).
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        switch fate {
        case .none where closingRequest && requestsInFlight > 0:
            quiesceHeld = true  // closed after the answer (write), bounded
        case .none:
            // Nothing decided, or the closing request is answered and its body read: the
            // close Hummingbird makes now cannot cut a client's sending short.
            context.fireUserInboundEventTriggered(event)
        case .answerAfterRouter, .passedOn, .dropped, .answered:
            break  // each ends in a bounded linger after its answers
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingering?.cancel()
        lingering = nil
        context.fireChannelInactive()
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
        PipelineJSONAnswer.write(value, status: status, date: date, serverName: serverName, closing: true, context: context)
        finish(context: context)
    }

    /// Shuts the output once what was written has left, and lingers.
    private func finish(context: ChannelHandlerContext) {
        fate = .answered
        context.close(mode: .output, promise: nil)
        linger(context: context)
    }

    /// Reads and drops what the client still sends, and closes the connection after
    /// ``lingerTime`` without its bytes (``maxLingerTime`` at most) unless the client closed its side first.
    private func linger(context: ChannelHandlerContext) {
        // Not when the close went through at once (the client had shut its side, or the
        // answer's flush failed): nothing would cancel the timer.
        guard lingering == nil, context.channel.isActive else { return }
        lingerStart = .now()
        scheduleLingerClose(context: context)
        context.read()
    }

    /// (Re)arms the close: ``lingerTime`` from now, and no later than ``maxLingerTime`` after
    /// the lingering began.
    private func scheduleLingerClose(context: ChannelHandlerContext) {
        lingering?.cancel()
        let channel = context.channel
        let deadline = min(NIODeadline.now() + Self.lingerTime, lingerStart + Self.maxLingerTime)
        lingering = context.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
    }
}
