/// Which run of a fleet a shard belongs to, so `merge` never mixes two runs' shards: `--run
/// ID`, else `COMPLIANCE_LOAD_RUN`, else a GitHub Actions run (`GITHUB_RUN_ID` and
/// `GITHUB_RUN_ATTEMPT`, which every job of a workflow run shares); nil when none is known.
enum FleetRun {
    static let variable = "COMPLIANCE_LOAD_RUN"

    static func id(option: String?, environment: [String: String]) throws(LoadError) -> String? {
        let chosen: String?
        if let option {
            chosen = option
        } else if let value = environment[variable] {
            chosen = value
        } else if let run = environment["GITHUB_RUN_ID"], !run.isEmpty {
            chosen = "github-\(run)-\(environment["GITHUB_RUN_ATTEMPT"] ?? "1")"
        } else {
            chosen = nil
        }
        guard let chosen else { return nil }
        guard !chosen.isEmpty, chosen.count <= 200, chosen.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
            throw LoadError("the run id \"\(chosen.prefix(60))\" (--run or \(variable)) must be 1…200 printable ASCII characters without spaces.")
        }
        return chosen
    }
}
