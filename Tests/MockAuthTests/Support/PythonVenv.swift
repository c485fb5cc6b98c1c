import Foundation
import Testing
import LocalServers

/// Virtualenvs under `.build` for the tests that drive mockauth with real Python clients
/// (MSAL Python; a rustls client). Created on first use (needs PyPI once), reused after.
/// Packages are pinned (`name==version`), so a new release on PyPI cannot change what a test
/// run checks; an existing virtualenv holding other versions is reinstalled.
enum PythonVenv {
    /// The interpreter of `.build/NAME`, with `packages` installed; `module` is imported to
    /// check that an existing virtualenv is whole, and each pin's installed version is checked.
    static func python(_ name: String, packages: [String], module: String) async throws -> String {
        let pins = try packages.map { package -> (name: String, version: String) in
            let parts = package.components(separatedBy: "==")
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw PinError(package: package) }
            return (parts[0], parts[1])
        }
        let venv = TestSupport.repositoryRoot.appendingPathComponent(".build/\(name)").path
        let python = venv + "/bin/python"
        let versions = pins.map { "importlib.metadata.version('\($0.name)') == '\($0.version)'" }.joined(separator: " and ")
        let check = "import importlib.metadata, \(module); import sys; sys.exit(0 if \(versions) else 3)"
        if FileManager.default.isExecutableFile(atPath: python) {
            let checked = try await Command.run(python, ["-c", check], timeout: .seconds(30))
            if checked.status == 0 { return python }
        }
        let created = try await Command.run("/usr/bin/python3", ["-m", "venv", "--clear", venv], timeout: .seconds(120))
        try #require(created.status == 0, "python3 -m venv failed: \(created.stderr)")
        let installed = try await Command.run(
            python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages, timeout: .seconds(300))
        try #require(installed.status == 0, "pip install \(packages.joined(separator: " ")) failed (timed out: \(installed.timedOut)): \(installed.stderr)")
        let verified = try await Command.run(python, ["-c", check], timeout: .seconds(30))
        try #require(verified.status == 0, "\(packages.joined(separator: " ")) are not what \(venv) holds after the install: \(verified.stderr)")
        return python
    }

    /// Every package a test installs is pinned to one version.
    struct PinError: Error, CustomStringConvertible {
        let package: String
        var description: String { "\(package) is not pinned: write it as NAME==VERSION" }
    }
}
