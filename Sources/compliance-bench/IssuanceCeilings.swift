import ConnectionCustody
import Foundation
import Hummingbird
import LocalServers
import Logging
import MockAuth
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Servers that do nothing per request but the issuance floor's signature: read the POST,
/// sign the floor's signing input with the same key, answer a token-shaped JSON (the token
/// and its type; a real answer also has `scope` and the lifetimes). They bound what any
/// issuer on each stack can reach on this machine under the same wrk load, so the issuance benchmark can say how much of the gap to the floor is the HTTP
/// stack and how much is mockauth's own work (form, CA evaluation, claims, JSON, state).
enum IssuanceCeilings {
    /// The answer every ceiling server sends: `{"token_type":"Bearer","access_token":"<input>.<signature>"}`.
    static func answer(signingInput: [UInt8], key: SigningKey) throws -> ByteBuffer {
        let signature = try key.sign(signingInput)
        var buffer = ByteBuffer()
        buffer.writeString(#"{"token_type":"Bearer","access_token":""#)
        buffer.writeBytes(signingInput)
        buffer.writeString(".")
        buffer.writeString(Base64URL.encode(signature))
        buffer.writeString(#""}"#)
        return buffer
    }

    /// Runs `body` with the URL of a plain SwiftNIO server (NIOHTTP1 codec and one channel
    /// handler, no async layer) on 127.0.0.1, port 0, with one event loop per core.
    static func withNIOServer<T: Sendable>(
        key: SigningKey, signingInput: [UInt8], _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: ProcessInfo.processInfo.activeProcessorCount)
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .childChannelInitializer { child in
                    child.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                        try child.pipeline.syncOperations.addHandler(SigningHandler(key: key, signingInput: signingInput))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let port = channel.localAddress?.port ?? 0
        do {
            let value = try await body("http://127.0.0.1:\(port)/token")
            try? await channel.close()
            try? await group.shutdownGracefully()
            return value
        } catch {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Runs `body` with the URL of a Hummingbird application with one POST route and no
    /// middleware, on 127.0.0.1, port 0. `pinned`: each connection's handler runs on its event
    /// loop, as in mockauth (``EventLoopPinnedChannel``); otherwise Hummingbird's defaults.
    static func withHummingbirdServer<T: Sendable>(
        key: SigningKey, signingInput: [UInt8], pinned: Bool, _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "issuance-ceiling")
        logger.logLevel = .error
        let router = Router()
        router.post("/token") { request, _ -> Response in
            _ = try await request.body.collect(upTo: MockAuthLimits.maxRequestBodyBytes)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: try answer(signingInput: signingInput, key: key)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let custody = ConnectionCustody()
        let application = Application(
            router: router, server: pinned ? .pinnedHTTP1(custody: custody) : .http1(custody: custody),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "ceiling"), services: [custody],
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { continuation.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await tasks.waitForAll()
                throw CancellationError()
            }
            return try await services.serving(&tasks) { try await body("http://127.0.0.1:\(port)/token") }
        }
    }

    /// Answers each complete request with a fresh signature; keep-alive as the client asks.
    private final class SigningHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        private let key: SigningKey
        private let signingInput: [UInt8]
        private var keepAlive = true

        init(key: SigningKey, signingInput: [UInt8]) {
            self.key = key
            self.signingInput = signingInput
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                keepAlive = head.isKeepAlive
            case .body:
                break
            case .end:
                let status: HTTPResponseStatus
                let body: ByteBuffer
                do {
                    body = try IssuanceCeilings.answer(signingInput: signingInput, key: key)
                    status = .ok
                } catch {
                    body = ByteBuffer(string: #"{"error":"server_error"}"#)
                    status = .internalServerError
                }
                var headers = HTTPHeaders()
                headers.add(name: "content-type", value: "application/json")
                headers.add(name: "content-length", value: String(body.readableBytes))
                if !keepAlive { headers.add(name: "connection", value: "close") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
                let keepAlive = self.keepAlive
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { loopBound.value.close(promise: nil) }
                }
            }
        }
    }
}
