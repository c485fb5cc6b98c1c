import Foundation
import JSON

/// What one shard of a fleet measured, as the file `compliance-load --shard I/N` writes and
/// `compliance-load merge` reads (JSON, one object):
/// `{"format":"compliance-load shard","version":1,"fleet":{"devices":D,"shards":N,"mock":URL,"run":ID|null},
/// "shard":I,"first":F,"count":C,"concurrency":K,"setupNanoseconds":…,"flowNanoseconds":…,
/// "flowsStartedMs":…,"flowsEndedMs":…,"timedOut":false,"compliantAtMock":…,"results":[…]}`.
struct ShardResult: Sendable {
    static let format = "compliance-load shard"
    static let version: Int64 = 1
    /// A shard of 100,000 devices writes about 20 MB.
    static let limits = JSONLimits(maxBytes: 512 << 20, maxDepth: 16)

    /// The fleet the shard belongs to: shards of one fleet agree on all four.
    struct Fleet: Sendable, Hashable, CustomStringConvertible {
        var devices: Int
        var shards: Int
        var mock: String
        /// The run (``FleetRun``); nil when the shard knew none.
        var run: String?
        var description: String { "\(devices) devices in \(shards) shards against \(mock)\(run.map { ", run \($0)" } ?? ", no run id")" }
    }

    /// 3000-01-01 in milliseconds since 1970: no shard ran later.
    static let latestWallClockMs: Int64 = 32_503_680_000_000

    /// The longest duration a shard's file may state (a year), so no sum overflows.
    static let maxNanoseconds: Int64 = 366 * 86_400 * 1_000_000_000

    var fleet: Fleet
    var shard: Int
    var first: Int
    var concurrency: Int
    var setup: Duration
    var flows: Duration
    /// Wall-clock time (milliseconds since 1970) the shard's flows began and ended: the merged
    /// report's flows/s is over the span from the first shard's start to the last one's end.
    var flowsStartedMs: Int64
    var flowsEndedMs: Int64
    var timedOut: Bool
    var compliantAtMock: Int
    /// Per device of the shard, in device order.
    var results: [DeviceResult]

    var json: JSONValue {
        [
            "format": .string(Self.format), "version": .int(Self.version),
            "fleet": [
                "devices": .int(Int64(fleet.devices)), "shards": .int(Int64(fleet.shards)), "mock": .string(fleet.mock),
                "run": fleet.run.map { .string($0) } ?? .null,
            ],
            "shard": .int(Int64(shard)), "first": .int(Int64(first)), "count": .int(Int64(results.count)),
            "concurrency": .int(Int64(concurrency)),
            "setupNanoseconds": .int(DeviceResult.nanoseconds(setup)), "flowNanoseconds": .int(DeviceResult.nanoseconds(flows)),
            "flowsStartedMs": .int(flowsStartedMs), "flowsEndedMs": .int(flowsEndedMs), "timedOut": .bool(timedOut),
            "compliantAtMock": .int(Int64(compliantAtMock)), "results": .array(results.map(\.json)),
        ]
    }

    /// Reads a shard's file; the error names the file and what is wrong in it.
    init(file: String) throws(LoadError) {
        guard let data = FileManager.default.contents(atPath: file) else { throw LoadError("\(file): cannot be read.") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data, limits: Self.limits)
        } catch {
            throw LoadError("\(file): not a shard's result (invalid JSON: \(error)).")
        }
        try self.init(json: json, file: file)
    }

    init(json: JSONValue, file: String) throws(LoadError) {
        func int(_ value: JSONValue?, _ name: String, atLeast minimum: Int64 = 0) throws(LoadError) -> Int64 {
            guard let number = value?.intValue, number >= minimum else {
                throw LoadError("\(file): \(name) must be a whole number ≥ \(minimum).")
            }
            return number
        }
        func nanoseconds(_ value: JSONValue?, _ name: String) throws(LoadError) -> Duration {
            let number = try int(value, name)
            guard number <= Self.maxNanoseconds else { throw LoadError("\(file): \(name) is out of range (\(number) ns is over a year).") }
            return .nanoseconds(number)
        }
        func count(_ value: JSONValue?, _ name: String, atLeast minimum: Int64 = 0) throws(LoadError) -> Int {
            let number = try int(value, name, atLeast: minimum)
            guard number <= 100_000_000 else { throw LoadError("\(file): \(name) is out of range (\(number)).") }
            return Int(number)
        }
        guard json.objectValue != nil, json["format"]?.stringValue == Self.format else {
            throw LoadError("\(file): not a shard's result (no \"format\": \"\(Self.format)\").")
        }
        guard json["version"]?.intValue == Self.version else { throw LoadError("\(file): version \(json["version"] ?? .null) is not \(Self.version).") }
        guard let mock = json["fleet"]?["mock"]?.stringValue else { throw LoadError("\(file): fleet.mock must be a string.") }
        let run = json["fleet"]?["run"] ?? .null
        guard run == .null || run.stringValue.map(FleetRun.isValid) == true else {
            throw LoadError("\(file): fleet.run must be null or 1…200 printable ASCII characters without spaces.")
        }
        fleet = Fleet(
            devices: try count(json["fleet"]?["devices"], "fleet.devices", atLeast: 1), shards: try count(json["fleet"]?["shards"], "fleet.shards", atLeast: 1),
            mock: mock, run: run.stringValue)
        shard = try count(json["shard"], "shard")
        first = try count(json["first"], "first", atLeast: 1)
        let expected = try count(json["count"], "count", atLeast: 1)
        concurrency = try count(json["concurrency"], "concurrency", atLeast: 1)
        setup = try nanoseconds(json["setupNanoseconds"], "setupNanoseconds")
        flows = try nanoseconds(json["flowNanoseconds"], "flowNanoseconds")
        flowsStartedMs = try int(json["flowsStartedMs"], "flowsStartedMs")
        flowsEndedMs = try int(json["flowsEndedMs"], "flowsEndedMs")
        guard flowsStartedMs <= Self.latestWallClockMs, flowsEndedMs <= Self.latestWallClockMs else {
            throw LoadError("\(file): flowsStartedMs and flowsEndedMs must be wall-clock milliseconds since 1970 (before the year 3000).")
        }
        guard flowsEndedMs >= flowsStartedMs, flowsEndedMs - flowsStartedMs <= Self.maxNanoseconds / 1_000_000 else {
            throw LoadError("\(file): flowsEndedMs (\(flowsEndedMs)) must be at or after flowsStartedMs (\(flowsStartedMs)), within a year.")
        }
        guard let timedOut = json["timedOut"]?.boolValue else { throw LoadError("\(file): timedOut must be true or false.") }
        self.timedOut = timedOut
        compliantAtMock = try count(json["compliantAtMock"], "compliantAtMock")
        guard let items = json["results"]?.arrayValue else { throw LoadError("\(file): results must be an array.") }
        var results: [DeviceResult] = []
        results.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do {
                results.append(try DeviceResult(json: item))
            } catch {
                throw LoadError("\(file): results[\(index)]: \(error)")
            }
        }
        guard results.count == expected else { throw LoadError("\(file): count says \(expected) devices, results hold \(results.count).") }
        self.results = results
        let plan = FleetShard(index: shard, count: fleet.shards)
        do {
            try plan.check(devices: fleet.devices)
        } catch {
            throw LoadError("\(file): \(error)")
        }
        let range = plan.devices(of: fleet.devices)
        guard range.lowerBound == first, range.count == results.count else {
            throw LoadError("\(file): shard \(plan) of \(fleet.devices) devices runs devices \(range.lowerBound)…\(range.upperBound), but the file holds \(first)…\(first + results.count - 1).")
        }
        guard compliantAtMock <= results.count else { throw LoadError("\(file): compliantAtMock (\(compliantAtMock)) exceeds the shard's \(results.count) devices.") }
    }

    init(
        fleet: Fleet, shard: Int, first: Int, concurrency: Int, setup: Duration, flows: Duration, flowsStartedMs: Int64, flowsEndedMs: Int64,
        timedOut: Bool, compliantAtMock: Int, results: [DeviceResult]
    ) {
        self.fleet = fleet
        self.shard = shard
        self.first = first
        self.concurrency = concurrency
        self.setup = setup
        self.flows = flows
        self.flowsStartedMs = flowsStartedMs
        self.flowsEndedMs = flowsEndedMs
        self.timedOut = timedOut
        self.compliantAtMock = compliantAtMock
        self.results = results
    }

    /// The fleet's report from every one of its shards' results (files named for the errors):
    /// all of one fleet, each shard once, none missing.
    static func merge(_ shards: [(file: String, result: ShardResult)]) throws(LoadError) -> LoadReport {
        guard let fleet = shards.first?.result.fleet else { throw LoadError("merge needs the result files of a fleet's shards.") }
        var byIndex: [Int: String] = [:]
        for (file, result) in shards {
            guard result.fleet == fleet else {
                throw LoadError("\(file) is from another fleet (\(result.fleet)) than \(shards[0].file) (\(fleet)).")
            }
            if let other = byIndex[result.shard] { throw LoadError("\(file) and \(other) are both shard \(result.shard)/\(fleet.shards).") }
            byIndex[result.shard] = file
        }
        let missing = (0..<fleet.shards).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw LoadError("the fleet (\(fleet)) lacks the result of shard \(missing.prefix(10).map { "\($0)/\(fleet.shards)" }.joined(separator: ", "))\(missing.count > 10 ? " and \(missing.count - 10) more" : "").")
        }
        let ordered = shards.map(\.result).sorted { $0.shard < $1.shard }
        let started = ordered.map(\.flowsStartedMs).min() ?? 0
        let ended = ordered.map(\.flowsEndedMs).max() ?? 0
        return LoadReport(
            devices: fleet.devices, concurrency: ordered.reduce(0) { $0 + $1.concurrency }, spread: " in \(fleet.shards) shards",
            setup: ordered.map(\.setup).max() ?? .zero, elapsed: .milliseconds(max(0, ended - started)), results: ordered.flatMap(\.results),
            compliantAtMock: ordered.reduce(0) { $0 + $1.compliantAtMock }, timedOut: ordered.contains(where: \.timedOut))
    }
}
