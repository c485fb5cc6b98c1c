import ConnectionCustody
import Foundation
import Hummingbird
import JSON
import Logging
import NIOCore
import ServiceLifecycle

/// Issue 9: a silent token that the daemon's cache answers, asked of the real `complianced`
/// (child process) over its control socket, against one raw libcurl round trip to a trivial
/// endpoint on the same kind of socket (a unix socket served by Hummingbird); both sides use
/// a reused raw libcurl handle. Also the in-process engine's cache hit, without any socket.
enum SilentTokenBenchmark {
    static let bob = "bob@contoso.com"

    static func run(iterations: Int, rounds: Int) async throws {
        try await BenchMock.run { mock in
            try await viaDaemon(mock: mock, iterations: iterations, rounds: rounds)
            try await inProcess(mock: mock, iterations: iterations * 4, rounds: rounds)
        }
    }

    private static func viaDaemon(mock: BenchMock.Running, iterations: Int, rounds: Int) async throws {
        let directory = BenchEngine.makeDirectory("silent")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try await ChildDaemon(stateDirectory: directory, authority: mock.authority)
        do {
            let control = RawCurl(unixSocket: daemon.socketPath)
            let json = ["Content-Type: application/json", "Accept: application/json"]
            let signIn: JSONValue = [
                "account": .string(bob), "scopes": .array(BenchEngine.chatRead.map { .string($0) }),
                "user": ["action": "signIn", "password": "Passw0rd!"],
            ]
            let signedIn = try await BlockingQueue.run {
                control.perform(.init(url: "http://localhost/v1/sign-in", body: signIn.encoded(), headers: json))
            }
            guard signedIn.status == 200, try JSONValue.parse(signedIn.body)["signedIn"] == true else {
                throw BenchError("the daemon did not sign bob in: HTTP \(signedIn.status)")
            }
            let tokenBody: JSONValue = ["account": .string(bob), "scopes": .array(BenchEngine.chatRead.map { .string($0) }), "silent": true]
            let tokenRequest = RawCurl.Request(url: "http://localhost/v1/token", body: tokenBody.encoded(), headers: json)

            let trivialSocket = directory + "/trivial.sock"
            try await TrivialUnixServer.run(path: trivialSocket) {
                let floor = RawCurl(unixSocket: trivialSocket)
                let floorRequest = RawCurl.Request(url: "http://localhost/v1/token", body: tokenBody.encoded(), headers: json)
                let (daemonSamples, floorSamples) = try await BlockingQueue.run {
                    var daemonSamples = Samples()
                    var floorSamples = Samples()
                    for round in 0...rounds {  // round 0 warms up
                        for _ in 0..<iterations {
                            let reply = control.perform(tokenRequest)
                            guard reply.status == 200, reply.text.contains("\"accessToken\"") else {
                                throw BenchError("the daemon's silent token failed: HTTP \(reply.status) \(reply.text.prefix(200))")
                            }
                            if round > 0 { daemonSamples.append(reply.elapsed) }
                        }
                        for _ in 0..<iterations {
                            let reply = floor.perform(floorRequest)
                            precondition(reply.status == 200, "the trivial endpoint failed")
                            if round > 0 { floorSamples.append(reply.elapsed) }
                        }
                    }
                    return (daemonSamples, floorSamples)
                }
                print("silent token via complianced (cache hit, POST /v1/token on the unix control socket), \(rounds) rounds × \(iterations)")
                print("  complianced                 : median \(micros(daemonSamples.median)), p99 \(micros(daemonSamples.percentile(0.99))), mean \(micros(daemonSamples.mean))")
                print("  trivial endpoint, same socket kind: median \(micros(floorSamples.median)), p99 \(micros(floorSamples.percentile(0.99))), mean \(micros(floorSamples.mean))")
                print("  ratio daemon / trivial: median \(ratio(daemonSamples.median, floorSamples.median)), mean \(ratio(daemonSamples.mean, floorSamples.mean))  (goal ≤ 2)")
            }
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }

    private static func inProcess(mock: BenchMock.Running, iterations: Int, rounds: Int) async throws {
        try await BenchEngine.run("silent-engine", mock: mock) { bench in
            let signedIn = try await bench.engine.signIn(bob, scopes: BenchEngine.chatRead, silent: false, user: BenchEngine.password)
            precondition(signedIn.signedIn, "bob did not sign in")
            var samples = Samples()
            for round in 0...rounds {
                for _ in 0..<iterations {
                    let start = ContinuousClock.now
                    let outcome = try await bench.engine.acquireToken(bob, scopes: BenchEngine.chatRead, silent: true, remediate: true, user: nil)
                    if round > 0 { samples.append(ContinuousClock.now - start) }
                    precondition(outcome.status == .compliant && outcome.tokens != nil, "the cache did not answer")
                }
            }
            print("silent token, in-process Engine cache hit, \(rounds) rounds × \(iterations)")
            print("  Engine.acquireToken: median \(micros(samples.median)), p99 \(micros(samples.percentile(0.99))), mean \(micros(samples.mean))  (goal: microseconds)")
        }
    }
}

/// A unix-socket Hummingbird server whose one route answers a fixed small JSON body.
enum TrivialUnixServer {
    static func run(path: String, _ body: @Sendable () async throws -> Void) async throws {
        let router = Router()
        router.post("/v1/token") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        let (ready, continuation) = AsyncStream<Void>.makeStream()
        let custody = ConnectionCustody()
        let app = Application(
            router: router, server: .http1(custody: custody), configuration: .init(address: .unixDomainSocket(path: path)), services: [custody],
            onServerRunning: { _ in continuation.yield() },
            logger: Logger(label: "bench.trivial", factory: { _ in SwiftLogNoOpLogHandler() }))
        let group = ServiceGroup(services: [app], logger: app.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            await iterator.next()
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
        }
    }
}
