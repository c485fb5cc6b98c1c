import ChildProcess
import Foundation
import JSON
import LocalServers
import Testing

@testable import compliance_load

/// The executables together: a mockauth shared by two shards (`compliance-load --shard I/2`),
/// their results merged, against one unsharded run of the same fleet.
@Suite struct ShardedFleetTests {
    static let devices = 6

    static func load(_ arguments: [String], environment: [String: String]? = nil) async throws -> Command.Result {
        let executable = ChildServer.executable("compliance-load")
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build compliance-load first: \(executable)")
        return try await Command.run(executable, arguments, timeout: .seconds(300), environment: environment)
    }

    /// The report's lines that count devices (not timings).
    static func totals(_ report: String) -> [String] {
        report.split(separator: "\n").filter { $0.hasPrefix("end states:") || $0 == "PASS" || $0 == "FAIL" }.map(String.init)
            + report.split(separator: "\n").compactMap { line in line.hasPrefix("flows: ") ? line.split(separator: "(").first.map(String.init) : nil }
    }

    @Test("two shards against one mockauth, merged, give the totals of one unsharded run")
    func twoShardsMergeAsOneRun() async throws {
        let unsharded = try await Self.load(["--devices", String(Self.devices), "--concurrency", "4"])
        #expect(unsharded.status == 0, "\(unsharded.stdout)\(unsharded.stderr)")

        let server = try ChildServer("mockauth", arguments: ["serve", "--port", "0", "--fixtures", InProcessMockAuth.fixturesPath, "--log-level", "error"])
        let directory = NSTemporaryDirectory() + "fleet-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var shards: [Command.Result] = []
        var prepare: Command.Result?
        var merged: Command.Result?
        var rerun: Command.Result?
        if let line = await server.firstLine(timeout: .seconds(30)), line.hasPrefix("listening on http://127.0.0.1:") {
            let mock = String(line.dropFirst("listening on ".count))
            prepare = try await Self.load(["prepare", "--mock", mock, "--devices", String(Self.devices)])
            // Both at once, as a job runner starts them: one by --shard, one by its index variable.
            async let first = Self.load(["--devices", String(Self.devices), "--shard", "0/2", "--mock", mock, "--output", directory + "/0.json", "--concurrency", "2"])
            async let second = Self.load(
                ["--devices", String(Self.devices), "--shards", "2", "--mock", mock, "--output", directory + "/1.json", "--concurrency", "2"],
                environment: ProcessInfo.processInfo.environment.merging(["JOB_COMPLETION_INDEX": "1"]) { $1 })
            shards = try await [first, second]
            merged = try await Self.load(["merge", directory + "/1.json", directory + "/0.json"])
            // Run again against the same mock without prepare: its users' enrollments are there.
            rerun = try await Self.load(["--devices", String(Self.devices), "--shard", "0/2", "--mock", mock, "--output", directory + "/again.json"])
        }
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)

        #expect(prepare?.status == 0, "prepare: \(prepare?.stdout ?? "not run") \(prepare?.stderr ?? server.stderr)")
        for (index, shard) in shards.enumerated() {
            #expect(shard.status == 0, "shard \(index): \(shard.stdout)\(shard.stderr)")
            #expect(shard.stdout.contains("shard \(index)/2 (devices \(index * 3 + 1)…\(index * 3 + 3) of 6): 3 of 3 Compliant, lost 0, wrong 0"), "\(shard.stdout)")
        }
        let report = try #require(merged)
        #expect(report.status == 0, "merge: \(report.stdout)\(report.stderr)")
        #expect(report.stdout.contains("in 2 shards, 4 flows in flight"), "\(report.stdout)")
        #expect(Self.totals(report.stdout) == Self.totals(unsharded.stdout), "merged:\n\(report.stdout)\nunsharded:\n\(unsharded.stdout)")
        #expect(Self.totals(report.stdout).first == "end states: 6 of 6 signed in, managed, enrolled and Compliant; compliant at the mock: 6; lost 0, wrong 0")
        let again = try #require(rerun)
        #expect(again.status == 1 && again.stderr.contains("already holds enrollments or compliance reports of 3 of this shard's 3 users"), "\(again.stdout)\(again.stderr)")
        #expect(!again.stderr.contains("Optional("))
    }

    /// A mock of 30,000 users answers a state of some 5.5 MB, over the HTTP client's default
    /// 4 MiB cap: the shard must still count its users at the mock and refuse a used mock
    /// (it read nothing, skipped the check and reported "compliant at the mock: 0").
    @Test("a shard of a 30,000-user mock counts its users and refuses the mock once used")
    func aLargeMocksStateIsRead() async throws {
        let server = try ChildServer("mockauth", arguments: ["serve", "--port", "0", "--fixtures", InProcessMockAuth.fixturesPath, "--log-level", "error"])
        let directory = NSTemporaryDirectory() + "fleet-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var runs: [Command.Result] = []
        if let line = await server.firstLine(timeout: .seconds(30)), line.hasPrefix("listening on http://127.0.0.1:") {
            let mock = String(line.dropFirst("listening on ".count))
            runs.append(try await Self.load(["prepare", "--mock", mock, "--devices", "30000"]))
            for name in ["first", "again"] {
                runs.append(try await Self.load(["--devices", "30000", "--shard", "0/6000", "--mock", mock, "--output", directory + "/\(name).json"]))
            }
        }
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
        try #require(runs.count == 3, "mockauth did not start: \(server.stderr)")
        #expect(runs[0].status == 0, "\(runs[0].stdout)\(runs[0].stderr)")
        #expect(runs[1].status == 0 && runs[1].stdout.contains("5 of 5 Compliant, lost 0, wrong 0; compliant at the mock: 5"), "\(runs[1].stdout)\(runs[1].stderr)")
        #expect(runs[2].status == 1 && runs[2].stderr.contains("already holds enrollments or compliance reports of 5 of this shard's 5 users"), "\(runs[2].stderr)")
    }

    /// Shard files come from other machines (CI artifacts): a device's detail holding control
    /// characters is printed escaped by merge.
    @Test func mergePrintsADevicesDetailEscaped() async throws {
        let directory = NSTemporaryDirectory() + "fleet-escapes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for shard in 0..<2 {
            var result = try #require(FleetShardTests.result(shard: shard, lost: true).json.objectValue)
            let results = (result["results"]?.arrayValue ?? []).map { device -> JSONValue in
                var device = device.objectValue ?? [:]
                device["detail"] = "down\u{1B}[2J\u{1B}]0;owned\u{7}\u{202E}"
                return .object(device)
            }
            result["results"] = .array(results)
            try JSONValue.object(result).encodedString().write(toFile: directory + "/\(shard).json", atomically: true, encoding: .utf8)
        }
        let merged = try await Self.load(["merge", directory + "/0.json", directory + "/1.json"])
        #expect(merged.status == 1 && merged.stdout.contains("down\\u{1B}[2J\\u{1B}]0;owned\\u{7}\\u{202E}"), "\(merged.stdout)\(merged.stderr)")
        #expect(!merged.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" }, "\(merged.stdout)")
    }

    @Test(
        "bad shards and unmergeable files are usage errors, not crashes",
        arguments: [
            (["--devices", "4", "--shard", "3/2", "--mock", "http://127.0.0.1:1"], 64, "the index must be 0…1"),
            (["--devices", "4", "--shard", "0/0", "--mock", "http://127.0.0.1:1"], 64, "at least 1 shard"),
            (["--devices", "4", "--shard", "0/2"], 64, "a shard needs --mock URL"),
            (["--devices", "4", "--mock", "http://127.0.0.1:1"], 64, "--mock, --output and --run go with --shard"),
            (["--devices", "4", "--shard", "0/2", "--mock", "http://u:p@127.0.0.1:1"], 64, "a URL with a user name or password is refused"),
            (["prepare", "--devices", "4", "--mock", "http://u:p@127.0.0.1:1"], 64, "a URL with a user name or password is refused"),
            (["--devices", "4", "--shard", "0/2", "--mock", "http://127.0.0.1:1", "--run", "a b"], 64, "must be 1…200 printable ASCII"),
            (["merge", "/nonexistent/shard.json"], 2, "/nonexistent/shard.json: cannot be read"),
            (["merge", "/etc/hostname"], 2, "/etc/hostname: not a shard's result"),
        ] as [([String], Int32, String)])
    func badInput(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Self.load(arguments)
        #expect(result.status == status, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}

/// dist/fleet/: the examples call options the programs have.
@Suite struct FleetExamplesTests {
    static func longOptions(_ program: String) async throws -> Set<String> {
        let dump = try await Command.run(ChildServer.executable(program), ["--experimental-dump-help"], timeout: .seconds(60))
        var names: Set<String> = []
        func walk(_ command: JSONValue) {
            for argument in command["arguments"]?.arrayValue ?? [] {
                for name in argument["names"]?.arrayValue ?? [] where name["kind"] == "long" { name["name"]?.stringValue.map { names.insert($0) } }
            }
            for subcommand in command["subcommands"]?.arrayValue ?? [] { walk(subcommand) }
        }
        walk(try #require(JSONValue.parse(dump.stdout)["command"]))
        return names
    }

    @Test("every --option in the Kubernetes and GitHub Actions examples is one of compliance-load's or mockauth's")
    func examplesUseRealOptions() async throws {
        let known = try await Self.longOptions("compliance-load").union(try await Self.longOptions("mockauth"))
        #expect(known.isSuperset(of: ["shard", "shards", "mock", "output", "devices", "public-url"]))
        let directory = InProcessMockAuth.packageRoot.appendingPathComponent("dist/fleet").path
        for file in ["kubernetes-indexed-job.yaml", "github-actions-matrix.yml", "README.md"] {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            // Less the options of the other tools the examples call (swift build, kubectl wait).
            let words = text.split(whereSeparator: { " \n\t\"'[](),".contains($0) })
            let used = Set(words.compactMap { word in word.wholeMatch(of: /--([a-z][a-z-]+)(=.*)?/).map { String($0.1) } })
                .subtracting(["product", "for", "timeout"])
            #expect(!used.isEmpty)
            #expect(used.subtracting(known).isEmpty, "dist/fleet/\(file) uses options the programs lack: \(used.subtracting(known).sorted())")
            #expect(text.contains("compliance-load merge"), "dist/fleet/\(file) merges the shards")
        }
    }
}
