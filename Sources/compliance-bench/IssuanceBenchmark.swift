import Foundation
import JSON
import Logging
import MockAuth
import ServiceLifecycle
import Synchronization

/// Issue 3's goal: password-grant tokens/s issued by mockauth under concurrent load (wrk, a
/// separate C process on loopback) against bare RS256 signatures/s of the same key and library,
/// with as many signing threads as cores, in the same run. Each request asks for one access
/// token only (no `openid`, no `offline_access`), so one token costs one signature.
enum IssuanceBenchmark {
    static func run(seconds: Int, connections: Int, fixturesPath: String) async throws {
        guard let wrk = which("wrk") else {
            print("issuance: skipped: wrk is not installed (apt-get install wrk)")
            return
        }
        let key = try SigningKey.generate()
        var logger = Logger(label: "bench.mockauth")
        logger.logLevel = .error
        let configuration = MockAuthConfiguration(fixtures: try Fixtures.load(path: fixturesPath), signingKey: key)
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let (application, _) = try buildApplication(configuration, logger: logger) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = urls.makeAsyncIterator()
            let base = await iterator.next() ?? ""
            let body = "grant_type=password&client_id=chatr&username=bob%40contoso.com&password=Passw0rd%21&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read"
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-bench-\(getpid()).lua")
            try """
                wrk.method = "POST"
                wrk.body = "\(body)"
                wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
                """.write(to: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: script) }
            let url = "\(base)/contoso.com/oauth2/v2.0/token"
            _ = try await offMainThread { try runWrk(wrk, url: url, script: script.path, seconds: 1, connections: connections) }  // warm-up
            let (tokensPerSecond, non2xx) = try await offMainThread {
                try runWrk(wrk, url: url, script: script.path, seconds: seconds, connections: connections)
            }
            await group.triggerGracefulShutdown()
            let signaturesPerSecond = try signatureRate(key: key, seconds: seconds)
            print("mockauth issuance, password grant, \(connections) connections for \(seconds) s (wrk, loopback)")
            print("  tokens/s issued by mockauth : \(Int(tokensPerSecond))\(non2xx > 0 ? "  (\(non2xx) non-2xx answers!)" : "")")
            print("  bare RS256 signatures/s     : \(Int(signaturesPerSecond))  (\(ProcessInfo.processInfo.activeProcessorCount) threads, same key, swift-crypto)")
            print("  ratio tokens / signatures   : \(ratio(tokensPerSecond, signaturesPerSecond))  (goal ≥ 0.80)")
        }
    }

    /// Runs blocking work on a thread of its own while the caller's task waits, so neither the
    /// main thread nor the cooperative pool (which serves mockauth here) is held.
    private static func offMainThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Runs wrk and returns (requests/s, non-2xx count).
    private static func runWrk(_ wrk: String, url: String, script: String, seconds: Int, connections: Int) throws -> (Double, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "-s", script, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rate = 0.0
        var non2xx = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rate = Double(fields[1]) ?? 0 }
            if line.contains("Non-2xx"), let last = fields.last { non2xx = Int(last) ?? 0 }
        }
        return (rate, non2xx)
    }

    /// Bare RS256 signatures/s (the key's own `sign`, no JWT assembly) over a token-sized
    /// signing input, one thread per core.
    private static func signatureRate(key: SigningKey, seconds: Int) throws -> Double {
        let claims: JSONValue = [
            "aud": "api://contoso-chat", "iss": "http://127.0.0.1/8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d/v2.0",
            "iat": 1_800_000_000, "nbf": 1_800_000_000, "exp": 1_800_003_600, "oid": "00000000-0000-0000-0000-000000000b0b",
            "preferred_username": "bob@contoso.com", "scp": "Chat.Read", "sub": "subject", "tid": "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d",
            "upn": "bob@contoso.com", "ver": "2.0", "xms_cc": ["protapp"],
        ]
        let signingInput = Array((Base64URL.encode(#"{"typ":"JWT","alg":"RS256","kid":"k"}"#.utf8) + "." + Base64URL.encode(claims.encoded())).utf8)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let deadline = ContinuousClock.now + .seconds(seconds)
        let total = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                var count = 0
                while ContinuousClock.now < deadline {
                    _ = try? key.sign(signingInput)
                    count += 1
                }
                total.withLock { $0 += count }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return Double(total.withLock { $0 }) / Double(seconds)
    }

    private static func which(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
