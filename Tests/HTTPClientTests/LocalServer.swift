import ConnectionCustody
import Hummingbird
import Logging
import MockAuth
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// A real Hummingbird server on loopback (port 0) or a unix socket, run in-process for the
/// duration of `body`, then shut down.
///
/// It serves from NIO's event loops alone, as mockauth does (``LoopPinnedApplication``,
/// `pinnedHTTP1`): its accept loop and handlers never wait for a thread of Swift's cooperative
/// pool, which the whole test process shares (2 threads here) and which other suites' blocking
/// work can hold (``LocalServerBlockedPoolTests``). Unpinned, one of 64 concurrent echo requests
/// once got no byte in 30 s during a full run. Pinned to NIO's shared group it happened again
/// (a clean clone's CI run, load 25): that group's two loops also serve every in-process mock
/// of the other suites, whose handlers (token signing, page rendering, in a debug build) run on
/// those loops, so a connection on a loop with a long queue waits behind them. Each run has an
/// event loop of its own.
enum LocalServer {
    static func run<T: Sendable>(
        address: BindAddress = .hostname("127.0.0.1", port: 0),
        _ body: @Sendable (_ baseURL: String) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let slowAnswers = Gate()
        let custody = ConnectionCustody()  // a stop under load never traps
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { loop.shutdownGracefully { _ in } }  // after the server has stopped
        let app = LoopPinnedApplication(base: Application(
            router: makeRouter(slowAnswers: slowAnswers),
            server: .pinnedHTTP1(custody: custody),
            configuration: .init(address: address), services: [custody],
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            eventLoopGroupProvider: .shared(loop),
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        ))
        let serviceGroup = ServiceGroup(services: [app], logger: app.logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serviceGroup.run() }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            do {
                let value = try await body("http://127.0.0.1:\(port)")
                slowAnswers.open()
                await serviceGroup.triggerGracefulShutdown()
                return value
            } catch {
                slowAnswers.open()
                await serviceGroup.triggerGracefulShutdown()
                throw error
            }
        }
    }

    /// `GET /slow` answers "late" once `slowAnswers` opens (when the test's body has ended, or
    /// after 10 minutes: a bound that only stops a hung test), so a client's timeout or
    /// cancellation always comes first, however slow the machine. (It answered after 3 s,
    /// which a 300 ms timeout beat only while the machine kept up.)
    static func makeRouter(slowAnswers: Gate = Gate()) -> Router<BasicRequestContext> {
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
            let deadline = ContinuousClock.now + .seconds(600)
            while !slowAnswers.isOpen, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
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

/// A flag that opens once: `GET /slow` waits for it.
final class Gate: Sendable {
    private let opened = Atomic<Bool>(false)
    var isOpen: Bool { opened.load(ordering: .acquiring) }
    func open() { opened.store(true, ordering: .releasing) }
}
