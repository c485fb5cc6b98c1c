import Foundation
import JSON
import MockAuth
import Synchronization

/// Issue 3's goal: password-grant tokens/s issued by mockauth under concurrent load (wrk, a
/// separate C process on loopback) against bare RS256 signatures/s of the same key and library,
/// with as many signing threads as cores, in the same run. Each request asks for one access
/// token only (no `openid`, no `offline_access`), so one token costs one signature.
enum IssuanceBenchmark {
    static func run(seconds: Int, connections: Int, rounds: Int) async throws {
        guard let wrk = which("wrk") else {
            print("issuance: skipped: wrk is not installed (apt-get install wrk)")
            return
        }
        try await BenchMock.run { mock in
            let body = "grant_type=password&client_id=chatr&username=bob%40contoso.com&password=Passw0rd%21&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read"
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-bench-\(getpid()).lua")
            try """
                wrk.method = "POST"
                wrk.body = "\(body)"
                wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
                """.write(to: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: script) }
            _ = try await BlockingQueue.run { try runWrk(wrk, url: mock.tokenURL, script: script.path, seconds: 1, connections: connections) }  // warm-up
            // Rounds alternate wrk and the floor, so a neighbour's load hits both sides alike.
            let slice = max(1, seconds / rounds)
            var tokenRates: [Double] = []
            var signatureRates: [Double] = []
            var non2xx = 0
            // This process's CPU seconds per side: tokens and signatures per CPU second do not
            // depend on how much of a shared machine each side happened to get.
            var serverCPU = 0.0
            var floorCPU = 0.0
            for _ in 0..<rounds {
                var start = processCPUSeconds()
                let (rate, bad) = try await BlockingQueue.run {
                    try runWrk(wrk, url: mock.tokenURL, script: script.path, seconds: slice, connections: connections)
                }
                serverCPU += processCPUSeconds() - start
                tokenRates.append(rate)
                non2xx += bad
                start = processCPUSeconds()
                signatureRates.append(try await BlockingQueue.run { try signatureRate(key: mock.key, seconds: slice) })
                floorCPU += processCPUSeconds() - start
            }
            let tokensPerSecond = tokenRates.reduce(0, +) / Double(rounds)
            let signaturesPerSecond = signatureRates.reduce(0, +) / Double(rounds)
            print("mockauth issuance, password grant, \(connections) connections, \(rounds) rounds × \(slice) s each side, alternating (wrk, loopback)")
            print("  tokens/s issued by mockauth : \(Int(tokensPerSecond))\(non2xx > 0 ? "  (\(non2xx) non-2xx answers!)" : "")")
            print("  bare RS256 signatures/s     : \(Int(signaturesPerSecond))  (\(ProcessInfo.processInfo.activeProcessorCount) threads, same key, swift-crypto)")
            print("  ratio tokens / signatures   : \(ratio(tokensPerSecond, signaturesPerSecond))  (goal ≥ 0.80); per round: \(zip(tokenRates, signatureRates).map { ratio($0, $1) }.joined(separator: ", "))")
            let tokensPerCPU = tokensPerSecond * Double(slice * rounds) / max(serverCPU, 0.001)
            let signaturesPerCPU = signaturesPerSecond * Double(slice * rounds) / max(floorCPU, 0.001)
            print("  per CPU second of this process: \(Int(tokensPerCPU)) tokens, \(Int(signaturesPerCPU)) signatures; ratio \(ratio(tokensPerCPU, signaturesPerCPU))")
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

    /// User + system CPU time of this process so far (every thread), in seconds.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func which(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
