import Foundation
import JSON
import Testing

@testable import compliance_load

/// How a fleet is split into shards and how the shards' results come together
/// (`compliance-load --shard I/N`, `compliance-load merge`).
@Suite struct FleetShardTests {
    @Test("N shards cover the devices of one run exactly once, in order, sizes differing by at most one")
    func partitionCoversEveryDeviceOnce() {
        var fleets = (1...40).flatMap { devices in (1...devices).map { (devices, $0) } }
        fleets += [(100_000, 7), (100_000, 64), (100_000, 100_000), (99_999, 8), (10_000, 3)]
        for (devices, shards) in fleets {
            let ranges = (0..<shards).map { FleetShard(index: $0, count: shards).devices(of: devices) }
            #expect(ranges.first?.lowerBound == 1 && ranges.last?.upperBound == devices, "\(devices) devices, \(shards) shards: \(ranges.first!)…\(ranges.last!)")
            for (left, right) in zip(ranges, ranges.dropFirst()) where right.lowerBound != left.upperBound + 1 {
                Issue.record("\(devices) devices, \(shards) shards: a gap or overlap between \(left) and \(right)")
            }
            let sizes = ranges.map(\.count)
            #expect(sizes.min()! >= 1 && sizes.max()! - sizes.min()! <= 1, "\(devices) devices, \(shards) shards: sizes \(sizes.prefix(10))")
            #expect(sizes.reduce(0, +) == devices)
        }
    }

    @Test("--shard I/N, or --shards N with JOB_COMPLETION_INDEX")
    func resolvesTheShard() throws {
        #expect(try FleetShard.resolve(shard: nil, shards: nil, devices: 10, environment: [:]) == nil)
        #expect(try FleetShard.resolve(shard: "0/4", shards: nil, devices: 10, environment: [:]) == FleetShard(index: 0, count: 4))
        #expect(try FleetShard.resolve(shard: "3/4", shards: nil, devices: 10, environment: ["JOB_COMPLETION_INDEX": "1"]) == FleetShard(index: 3, count: 4))
        #expect(try FleetShard.resolve(shard: nil, shards: 4, devices: 10, environment: ["JOB_COMPLETION_INDEX": "2"]) == FleetShard(index: 2, count: 4))
    }

    @Test(
        "bad shards are errors that say what is wrong",
        arguments: [
            ("3/2", nil, [:], "the index must be 0…1"),
            ("2/2", nil, [:], "the index must be 0…1"),
            ("-1/2", nil, [:], "the index must be 0…1"),
            ("0/0", nil, [:], "at least 1 shard"),
            ("0/11", nil, [:], "11 shards for 10 devices"),
            ("1", nil, [:], "expected I/N"),
            ("1/2/3", nil, [:], "expected I/N"),
            ("a/b", nil, [:], "expected I/N"),
            ("/2", nil, [:], "expected I/N"),
            ("0/2", 2, [:], "not both"),
            (nil, 2, [:], "JOB_COMPLETION_INDEX"),
            (nil, 2, ["JOB_COMPLETION_INDEX": "x"], "JOB_COMPLETION_INDEX=x is not a whole number"),
            (nil, 2, ["JOB_COMPLETION_INDEX": "2"], "the index must be 0…1"),
        ] as [(String?, Int?, [String: String], String)])
    func badShards(shard: String?, shards: Int?, environment: [String: String], message: String) {
        #expect {
            _ = try FleetShard.resolve(shard: shard, shards: shards, devices: 10, environment: environment)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    static func result(devices: Int = 10, shards: Int = 2, shard: Int, mock: String = "http://127.0.0.1:1", run: String? = "r1", lost: Bool = false) -> ShardResult {
        let range = FleetShard(index: shard, count: shards).devices(of: devices)
        let device = try! DeviceResult(json: ["nanoseconds": .int(lost ? 0 : 1_000_000), "error": lost ? "down" : .null, "outcomeExpected": true, "stateExpected": true, "detail": lost ? "down" : ""])
        return ShardResult(
            fleet: .init(devices: devices, shards: shards, mock: mock, run: run), shard: shard, first: range.lowerBound, concurrency: 4, setup: .seconds(1),
            flows: .seconds(2), flowsStartedMs: 1_000 + Int64(shard) * 500, flowsEndedMs: 3_000 + Int64(shard) * 500, timedOut: false,
            compliantAtMock: range.count, results: [DeviceResult](repeating: device, count: range.count))
    }

    /// A result written and read back, as merge reads it.
    static func roundTrip(_ result: ShardResult) throws -> ShardResult {
        try ShardResult(json: try JSONValue.parse(result.json.encodedString()), file: "shard.json")
    }

    @Test("merge: the fleet's totals from its shards, flows/s over the span of all of them")
    func mergesTheShards() throws {
        let report = try ShardResult.merge([("b", try Self.roundTrip(Self.result(shard: 1))), ("a", try Self.roundTrip(Self.result(shard: 0)))])
        #expect(report.passed)
        #expect(report.text.contains("compliance-load: 10 devices (an engine, state directory and SQLite store each) in 2 shards, 8 flows in flight"))
        #expect(report.text.contains("flows: 10 sign-ins"))
        #expect(report.text.contains("in 2.5 s = 4.0 flows/s"))
        #expect(report.text.contains("end states: 10 of 10 signed in, managed, enrolled and Compliant; compliant at the mock: 10; lost 0, wrong 0"))
        let failed = try ShardResult.merge([("a", Self.result(shard: 0)), ("b", Self.result(shard: 1, lost: true))])
        #expect(!failed.passed && failed.lost == 5)
        #expect(failed.text.contains("  device 6: down"))
    }

    @Test(
        "merge refuses shards of different fleets, a shard twice or missing",
        arguments: [
            ([result(shard: 0), result(shards: 3, shard: 1)], "is from another fleet (10 devices in 3 shards"),
            ([result(shard: 0), result(devices: 12, shard: 1)], "is from another fleet (12 devices in 2 shards"),
            ([result(shard: 0), result(shard: 1, mock: "http://elsewhere")], "is from another fleet"),
            ([result(shard: 0), result(shard: 1, run: "r2")], "is from another fleet (10 devices in 2 shards against http://127.0.0.1:1, run r2)"),
            ([result(shard: 0), result(shard: 1, run: nil)], "no run id"),
            ([result(shard: 0), result(shard: 0)], "are both shard 0/2"),
            ([result(shard: 1)], "lacks the result of shard 0/2"),
            ([], "needs the result files"),
        ])
    func mergeRefuses(results: [ShardResult], message: String) {
        #expect {
            _ = try ShardResult.merge(results.enumerated().map { ("shard-\($0.offset).json", $0.element) })
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test(
        "a malformed result file is an error naming the file and what is wrong",
        arguments: [
            ("not json", "invalid JSON"),
            ("[]", "not a shard's result"),
            (#"{"format":"something else"}"#, "not a shard's result"),
            (#"{"format":"compliance-load shard","version":2}"#, "version 2 is not 1"),
        ])
    func malformedFile(text: String, message: String) throws {
        let file = NSTemporaryDirectory() + "shard-\(UUID().uuidString).json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect {
            _ = try ShardResult(file: file)
        } throws: { error in
            "\(error)".contains(file) && "\(error)".contains(message)
        }
    }

    @Test(
        "a result whose fields disagree with its fleet is refused",
        arguments: [
            ("fleet", .null, "fleet.mock must be a string"),
            ("fleet", ["devices": 10, "shards": 2, "mock": "http://127.0.0.1:1", "run": "r1\u{1B}]0;x\u{7}"], "fleet.run must be null or 1…200 printable ASCII"),
            ("fleet", ["devices": 10, "shards": 2, "mock": "http://127.0.0.1:1", "run": ""], "fleet.run must be null or 1…200 printable ASCII"),
            ("shard", .int(-1), "shard must be a whole number"),
            ("shard", .int(2), "the index must be 0…1"),
            ("first", .int(2), "runs devices 1…5, but the file holds 2…6"),
            ("count", .int(4), "count says 4 devices, results hold 5"),
            ("results", .array([.int(1)]), "results[0]: not a device's result"),
            ("results", .array((1...5).map { _ in ["nanoseconds": .int(-1), "outcomeExpected": true, "stateExpected": true] }), "results[0]: nanoseconds must be null"),
            ("results", .array((1...5).map { _ in ["nanoseconds": "5", "outcomeExpected": true, "stateExpected": true] }), "results[0]: nanoseconds must be null"),
            ("results", .array((1...5).map { _ in ["nanoseconds": .int(1), "error": .int(3), "outcomeExpected": true, "stateExpected": true] }), "results[0]: error must be null or a string"),
            ("setupNanoseconds", .int(-5), "setupNanoseconds must be a whole number ≥ 0"),
            ("setupNanoseconds", .int(Int64.max), "setupNanoseconds is out of range"),
            ("flowsEndedMs", .int(10), "must be at or after flowsStartedMs"),
            ("timedOut", .null, "timedOut must be true or false"),
            ("compliantAtMock", .int(6), "exceeds the shard's 5 devices"),
        ] as [(String, JSONValue, String)])
    func inconsistentResult(field: String, value: JSONValue, message: String) throws {
        var object = try #require(Self.result(shard: 0).json.objectValue)
        object[field] = value
        #expect {
            _ = try ShardResult(json: .object(object), file: "shard-0.json")
        } throws: { error in
            "\(error)".contains("shard-0.json: ") && "\(error)".contains(message)
        }
    }

    @Test("the run id: --run, else COMPLIANCE_LOAD_RUN, else GitHub Actions' run; printable, no spaces")
    func runIDs() throws {
        #expect(try FleetRun.id(option: "a1", environment: ["COMPLIANCE_LOAD_RUN": "b"]) == "a1")
        #expect(try FleetRun.id(option: nil, environment: ["COMPLIANCE_LOAD_RUN": "b", "GITHUB_RUN_ID": "7"]) == "b")
        #expect(try FleetRun.id(option: nil, environment: ["GITHUB_RUN_ID": "7", "GITHUB_RUN_ATTEMPT": "2"]) == "github-7-2")
        #expect(try FleetRun.id(option: nil, environment: [:]) == nil)
        for bad in ["", "a b", "x\ny", String(repeating: "a", count: 201), "é"] {
            #expect(throws: LoadError.self) { try FleetRun.id(option: bad, environment: [:]) }
        }
    }

    @Test("--mock takes a base URL without credentials")
    func mockURLs() throws {
        #expect(try MockURL.parse("http://mock:8080/") == "http://mock:8080")
        #expect(try MockURL.parse("https://mock.example/base") == "https://mock.example/base")
        for bad in ["http://admin:secret@mock:8080", "http://admin@mock", "ftp://mock", "mock:8080", "http://", "http://mock/?a=1"] {
            #expect(throws: (any Error).self, "\(bad)") { try MockURL.parse(bad) }
        }
    }
}
