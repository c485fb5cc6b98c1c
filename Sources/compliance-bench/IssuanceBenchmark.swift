import Foundation
import JSON
import MockAuth
import Synchronization

/// Issue 3's goal: password-grant tokens/s issued by mockauth under concurrent load (wrk, a
/// separate C process on loopback) against bare RS256 signatures/s of the same key and library,
/// with as many signing threads as cores, in the same run. Each request asks for one access
/// token only (no `openid`, no `offline_access`), so one token costs one signature.
///
/// Three ceilings are measured in the same rounds (``IssuanceCeilings``): servers that only
/// sign, under the same load, on plain SwiftNIO and on Hummingbird (served as mockauth is,
/// and with Hummingbird's defaults).
enum IssuanceBenchmark {
    static func run(seconds: Int, connections: Int, rounds: Int) async throws {
        guard let wrk = which("wrk") else {
            print("issuance: skipped: wrk is not installed (apt-get install wrk)")
            return
        }
        let signingInput = floorSigningInput()
        try await BenchMock.run { mock in
            let key = mock.key
            try await IssuanceCeilings.withNIOServer(key: key, signingInput: signingInput) { nioURL in
                try await IssuanceCeilings.withHummingbirdServer(key: key, signingInput: signingInput, pinned: true) { pinnedURL in
                    try await IssuanceCeilings.withHummingbirdServer(key: key, signingInput: signingInput, pinned: false) { defaultURL in
                        try await measure(
                            wrk: wrk, mockURL: mock.tokenURL, pipelineAnswers: { mock.state.pipelineTokenAnswers.load(ordering: .relaxed) }, ceilings: [("plain SwiftNIO handler", nioURL), ("Hummingbird, pinned", pinnedURL), ("Hummingbird, defaults", defaultURL)],
                            key: key, signingInput: signingInput, seconds: seconds, connections: connections, rounds: rounds)
                    }
                }
            }
        }
    }

    /// One side's figures over the rounds.
    private struct Side {
        var rates: [Double] = []
        var cpu = 0.0
        var non2xx = 0
        var requests = 0
        var mean: Double { rates.reduce(0, +) / Double(max(rates.count, 1)) }
    }

    private static func measure(
        wrk: String, mockURL: String, pipelineAnswers: @Sendable () -> Int, ceilings: [(name: String, url: String)], key: SigningKey, signingInput: [UInt8],
        seconds: Int, connections: Int, rounds: Int
    ) async throws {
        let body = "grant_type=password&client_id=chatr&username=bob%40contoso.com&password=Passw0rd%21&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read"
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-bench-\(getpid()).lua")
        try """
            wrk.method = "POST"
            wrk.body = "\(body)"
            wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
            """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        for url in [mockURL] + ceilings.map(\.url) {  // warm-up
            _ = try await BlockingQueue.run { try runWrk(wrk, url: url, script: script.path, seconds: 1, connections: connections) }
        }
        // Rounds alternate the sides, so a neighbour's load hits each alike. CPU seconds are
        // this process's (every server here is in-process): tokens and signatures per CPU
        // second do not depend on how much of a shared machine each side happened to get.
        let slice = max(1, seconds / rounds)
        var mockauth = Side(), floor = Side()
        var ceilingSides = ceilings.map { _ in Side() }
        /// Runs one side's slice (off the cooperative pool), noting its rate, non-2xx answers
        /// and this process's CPU seconds.
        func measured(into side: inout Side, _ slice: @escaping @Sendable () throws -> WrkResult) async throws {
            let start = processCPUSeconds()
            let result = try await BlockingQueue.run(slice)
            side.cpu += processCPUSeconds() - start
            side.rates.append(result.rate)
            side.non2xx += result.non2xx
            side.requests += result.requests
        }
        func served(_ url: String, into side: inout Side) async throws {
            try await measured(into: &side) { try runWrk(wrk, url: url, script: script.path, seconds: slice, connections: connections) }
        }
        var pipelined = 0
        for _ in 0..<rounds {
            let answeredBefore = pipelineAnswers()
            try await served(mockURL, into: &mockauth)
            pipelined += pipelineAnswers() - answeredBefore
            try await measured(into: &floor) { WrkResult(rate: try signatureRate(key: key, signingInput: signingInput, seconds: slice), non2xx: 0, requests: 0) }
            for index in ceilings.indices { try await served(ceilings[index].url, into: &ceilingSides[index]) }
        }
        let signatures = floor.mean
        func perCPU(_ side: Side) -> Double { side.mean * Double(slice * rounds) / max(side.cpu, 0.001) }
        func warning(_ side: Side) -> String { side.non2xx > 0 ? "  (\(side.non2xx) non-2xx answers!)" : "" }
        print("mockauth issuance, password grant, \(connections) connections, \(rounds) rounds × \(slice) s each side, alternating (wrk, loopback)")
        print("  tokens/s issued by mockauth : \(Int(mockauth.mean))\(warning(mockauth))")
        print("    answered in the pipeline (TokenFastLane): \(pipelined) of wrk's \(mockauth.requests) requests")
        print("  bare RS256 signatures/s     : \(Int(signatures))  (\(ProcessInfo.processInfo.activeProcessorCount) threads, same key, swift-crypto)")
        print("  ratio tokens / signatures   : \(ratio(mockauth.mean, signatures))  (goal ≥ 0.80); per round: \(zip(mockauth.rates, floor.rates).map { ratio($0, $1) }.joined(separator: ", "))")
        print("  per CPU second of this process: \(Int(perCPU(mockauth))) tokens, \(Int(perCPU(floor))) signatures; ratio \(ratio(perCPU(mockauth), perCPU(floor)))")
        print("  ceilings, servers that only sign (same key, input and wrk load):")
        for (ceiling, side) in zip(ceilings, ceilingSides) {
            let name = ceiling.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            print("    \(name): \(Int(side.mean)) tokens/s, ratio \(ratio(side.mean, signatures)); per CPU second \(Int(perCPU(side))), ratio \(ratio(perCPU(side), perCPU(floor)))\(warning(side))")
        }
    }

    /// What one wrk run printed: requests/s, non-2xx answers and requests sent.
    private struct WrkResult: Sendable {
        var rate: Double
        var non2xx: Int
        var requests: Int
    }

    /// Runs wrk and returns its requests/s, non-2xx count and request count.
    private static func runWrk(_ wrk: String, url: String, script: String, seconds: Int, connections: Int) throws -> WrkResult {
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
        var requests = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rate = Double(fields[1]) ?? 0 }
            if line.contains("Non-2xx"), let last = fields.last { non2xx = Int(last) ?? 0 }
            if fields.count > 2, fields[1] == "requests", fields[2] == "in" { requests = Int(fields[0]) ?? 0 }
        }
        return WrkResult(rate: rate, non2xx: non2xx, requests: requests)
    }

    /// A token-sized signing input (header and claims of a password-grant access token).
    private static func floorSigningInput() -> [UInt8] {
        let claims: JSONValue = [
            "aud": "api://contoso-chat", "iss": "http://127.0.0.1/8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d/v2.0",
            "iat": 1_800_000_000, "nbf": 1_800_000_000, "exp": 1_800_003_600, "oid": "00000000-0000-0000-0000-000000000b0b",
            "preferred_username": "bob@contoso.com", "scp": "Chat.Read", "sub": "subject", "tid": "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d",
            "upn": "bob@contoso.com", "ver": "2.0", "xms_cc": ["protapp"],
        ]
        return Array((Base64URL.encode(#"{"typ":"JWT","alg":"RS256","kid":"k"}"#.utf8) + "." + Base64URL.encode(claims.encoded())).utf8)
    }

    /// Bare RS256 signatures/s (the key's own `sign`, no JWT assembly) over `signingInput`,
    /// one thread per core.
    private static func signatureRate(key: SigningKey, signingInput: [UInt8], seconds: Int) throws -> Double {
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
