/// One shard of a fleet: shard `index` (from 0, as Kubernetes' `JOB_COMPLETION_INDEX`) of
/// `count`, and which devices of the fleet it runs.
struct FleetShard: Sendable, Hashable, CustomStringConvertible {
    let index: Int
    let count: Int

    /// The environment variable a Kubernetes Indexed Job sets to the pod's index (0…N-1).
    static let indexVariable = "JOB_COMPLETION_INDEX"

    var description: String { "\(index)/\(count)" }

    /// The shard `--shard I/N` names, or with `--shards N` the shard of index
    /// `JOB_COMPLETION_INDEX`; nil when neither is given (an unsharded run). Checks the index
    /// and count against the fleet's `devices`.
    static func resolve(shard: String?, shards: Int?, devices: Int, environment: [String: String]) throws(LoadError) -> FleetShard? {
        let resolved: FleetShard
        switch (shard, shards) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw LoadError("give --shard I/N or --shards N (the index from \(indexVariable)), not both.")
        case (let text?, nil):
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
                throw LoadError("--shard \(text): expected I/N, two whole numbers (e.g. --shard 0/4: the first of four shards).")
            }
            resolved = FleetShard(index: index, count: count)
        case (nil, let count?):
            guard let value = environment[indexVariable] else {
                throw LoadError("--shards \(count) takes the shard's index from \(indexVariable) (set by a Kubernetes Indexed Job), which is not set; or give --shard I/\(count).")
            }
            guard let index = Int(value) else { throw LoadError("\(indexVariable)=\(value) is not a whole number.") }
            resolved = FleetShard(index: index, count: count)
        }
        try resolved.check(devices: devices)
        return resolved
    }

    /// A count of 1…devices, an index of 0…count-1.
    func check(devices: Int) throws(LoadError) {
        guard count >= 1 else { throw LoadError("shard \(self): a fleet has at least 1 shard, not \(count).") }
        guard count <= devices else { throw LoadError("shard \(self): \(count) shards for \(devices) devices would leave shards empty; use at most \(devices).") }
        guard (0..<count).contains(index) else {
            throw LoadError("shard \(self): the index must be 0…\(count - 1) (shards are numbered from 0, as \(Self.indexVariable) is).")
        }
    }

    /// The devices (1-based, as the generated users are numbered) this shard runs: contiguous,
    /// sizes differing by at most one, so the shards 0…count-1 cover 1…devices exactly once.
    func devices(of total: Int) -> ClosedRange<Int> {
        (index * total / count + 1)...((index + 1) * total / count)
    }
}
