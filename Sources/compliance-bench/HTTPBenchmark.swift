import ConnectionCustody
import HTTPClient
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Issue 2's goal: mean time per sequential POST over ``HTTPClient`` against a bare libcurl
/// loop on a reused handle, same local Hummingbird server, same run. Rounds alternate so that
/// machine noise hits both sides alike.
enum HTTPBenchmark {
    static func run(iterations: Int, rounds: Int) async throws {
        let router = Router()
        router.post("token") { request, _ -> Response in
            Response(status: .ok, body: .init(asyncSequence: request.body))
        }
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let custody = ConnectionCustody()
        let app = Application(
            router: router, server: .http1(custody: custody), configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: [custody],
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let group = ServiceGroup(services: [app], logger: app.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let url = "http://127.0.0.1:\(await iterator.next() ?? 0)/token"
            let body = Array("grant_type=refresh_token&client_id=chatr&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read&refresh_token=xyz".utf8)
            let client = HTTPClient()
            let request = HTTPClientRequest.form(url: url, fields: FormEncoding.decode(String(decoding: body, as: UTF8.self)))

            _ = await BareCurlLoop.run(url: url, body: body, iterations: iterations / 4)  // warm-up
            for _ in 0..<(iterations / 4) { _ = try await client.execute(request) }

            var bare = Samples()
            var wrapped = Samples()
            for _ in 0..<rounds {
                bare.append(contentsOf: await BareCurlLoop.run(url: url, body: body, iterations: iterations))
                let clock = ContinuousClock()
                for _ in 0..<iterations {
                    let start = clock.now
                    let response = try await client.execute(request)
                    wrapped.append(clock.now - start)
                    precondition(response.status == 200 && response.body == body, "HTTPClient POST got a wrong answer")
                }
            }
            print("HTTP POST, \(rounds) rounds × \(iterations) sequential requests, loopback Hummingbird server")
            print("  bare libcurl (reused handle): mean \(micros(bare.mean)), median \(micros(bare.median)), p99 \(micros(bare.percentile(0.99)))")
            print("  HTTPClient                  : mean \(micros(wrapped.mean)), median \(micros(wrapped.median)), p99 \(micros(wrapped.percentile(0.99)))")
            print("  ratio HTTPClient / bare: mean \(ratio(wrapped.mean, bare.mean)), median \(ratio(wrapped.median, bare.median))  (goal ≤ 1.15)")
            await group.triggerGracefulShutdown()
        }
    }
}
