import Foundation
import Testing
import TestSupport

/// Virtualenvs under `.build` for the tests that drive mockauth with real Python clients
/// (MSAL Python; a rustls client). Created on first use (needs PyPI once), reused after.
enum PythonVenv {
    /// The interpreter of `.build/NAME`, with `packages` installed; `module` is imported to
    /// check that an existing virtualenv is whole.
    static func python(_ name: String, packages: [String], module: String) async throws -> String {
        let venv = TestSupport.repositoryRoot.appendingPathComponent(".build/\(name)").path
        let python = venv + "/bin/python"
        if FileManager.default.isExecutableFile(atPath: python) {
            let check = try await Command.run(python, ["-c", "import \(module)"], timeout: .seconds(30))
            if check.status == 0 { return python }
        }
        let created = try await Command.run("/usr/bin/python3", ["-m", "venv", venv], timeout: .seconds(120))
        try #require(created.status == 0, "python3 -m venv failed: \(created.stderr)")
        let installed = try await Command.run(
            python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages, timeout: .seconds(300))
        try #require(installed.status == 0, "pip install \(packages.joined(separator: " ")) failed (timed out: \(installed.timedOut)): \(installed.stderr)")
        return python
    }
}
