/// Which run of a fleet a shard belongs to, so `merge` never mixes two runs' shards: `--run
/// ID`, else `COMPLIANCE_LOAD_RUN`, else a GitHub Actions run (`GITHUB_RUN_ID` and
/// `GITHUB_RUN_ATTEMPT`, which every job of a workflow run shares); nil when none is known.
enum FleetRun {
    static let variable = "COMPLIANCE_LOAD_RUN"

    static func id(option: String?, environment: [String: String]) throws(LoadError) -> String? {
        let chosen: (id: String, source: String)
        if let option {
            chosen = (option, "--run")
        } else if let value = environment[variable] {
            chosen = (value, variable)
        } else if let run = environment["GITHUB_RUN_ID"], !run.isEmpty {
            let attempt = environment["GITHUB_RUN_ATTEMPT"].flatMap { $0.isEmpty ? nil : $0 } ?? "1"
            chosen = ("github-\(run)-\(attempt)", "GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT")
        } else {
            return nil
        }
        guard isValid(chosen.id) else {
            let shown = String(chosen.id.unicodeScalars.prefix(60).map { (0x21...0x7E).contains($0.value) ? Character($0) : "?" })
            throw LoadError("the run id \"\(shown)\" (from \(chosen.source)) must be 1…200 printable ASCII characters without spaces.")
        }
        return chosen.id
    }

    /// 1…200 printable ASCII characters without spaces: what a run id may be, given or read
    /// from a shard's result.
    static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 200 && id.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }
}
