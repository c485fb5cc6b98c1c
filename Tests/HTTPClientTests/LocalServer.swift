import ConnectionCustody
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A real Hummingbird server on loopback (port 0) or a unix socket, run in-process for the
/// duration of `body`, then shut down.
enum LocalServer {
    static func run<T: Sendable>(
        address: BindAddress = .hostname("127.0.0.1", port: 0),
        _ body: @Sendable (_ baseURL: String) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let custody = ConnectionCustody()  // a stop under load never traps
        let app = Application(
            router: makeRouter(), server: .http1(custody: custody),
            configuration: .init(address: address), services: [custody],
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let serviceGroup = ServiceGroup(services: [app], logger: app.logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serviceGroup.run() }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            do {
                let value = try await body("http://127.0.0.1:\(port)")
                await serviceGroup.triggerGracefulShutdown()
                return value
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
        }
    }

    static func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("hello") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.init("X-Test")!] = "yes"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "hello")))
        }
        router.on("echo", method: .post) { request, context -> Response in echo(request, context) }
        router.on("echo", method: .put) { request, context -> Response in echo(request, context) }
        router.on("echo", method: .delete) { request, context -> Response in echo(request, context) }
        router.get("slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(3))
            return "late"
        }
        router.get("big") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x61, count: 256 * 1024)))
        }
        router.get("busy") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.retryAfter] = "7"
            return Response(status: .serviceUnavailable, headers: headers)
        }
        router.get("redirect") { _, _ -> Response in
            .redirect(to: "/hello", type: .found)
        }
        return router
    }

    /// Answers with the request's method, body and a few headers.
    private static func echo(_ request: Request, _ context: BasicRequestContext) -> Response {
        var headers = HTTPFields()
        headers[.init("X-Method")!] = request.method.rawValue
        headers[.init("X-Content-Type")!] = request.headers[.contentType] ?? ""
        headers[.init("X-Authorization")!] = request.headers[.authorization] ?? ""
        return Response(status: .ok, headers: headers, body: .init(asyncSequence: request.body))
    }
}
