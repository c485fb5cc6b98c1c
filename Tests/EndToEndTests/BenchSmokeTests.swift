import ChildProcess
import LocalServers
import Testing

/// The benchmarks that need no extra tool run once, tiny, so a change that breaks one (as the
/// token mirror once broke `remediation` unseen) fails here, not in the next measuring session.
/// Figures are not checked: timings belong in `compliance-bench`, never in a test.
@Suite struct BenchSmokeTests {
    @Test func remediationSilentTokenHTTPAndJSONRunToTheirRatios() async throws {
        let completion = try await ChildProcess.run(
            ChildServer.executable("compliance-bench"),
            ["remediation", "silent-token", "http", "json", "--iterations", "3", "--rounds", "1"], input: nil, environment: nil,
            timeout: .seconds(300))
        let output = completion.standardOutput
        #expect(completion.status == 0, "stdout: \(output.suffix(800)) stderr: \(completion.standardError.suffix(800))")
        for line in ["ratio engine / raw libcurl", "ratio daemon / trivial", "Engine.acquireToken", "ratio HTTPClient / bare"] {
            #expect(output.contains(line), "no '\(line)' in: \(output.suffix(800))")
        }
    }
}
