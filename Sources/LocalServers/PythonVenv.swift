import Foundation

/// Virtualenvs under `.build` for the tests that use real Python programs (MSAL Python, a
/// rustls client, a third-party OpenID Connect provider). Created on first use (needs PyPI
/// once), reused after. Packages are pinned (`name==version`), so a new release on PyPI cannot
/// change what a test run checks; an existing virtualenv holding other versions is reinstalled.
public enum PythonVenv {
    /// The interpreter of `.build/NAME`, with `packages` installed; `module` is imported to
    /// check that an existing virtualenv is whole, and each pin's installed version is checked.
    /// Tests running at once that want the same virtualenv wait for one creation.
    public static func python(_ name: String, packages: [String], module: String) async throws -> String {
        try await Creations.shared.python(name) { try await create(name, packages: packages, module: module) }
    }

    /// One creation per virtualenv name in this process, and one at a time: six suites that
    /// each made theirs at once on a busy machine ran `python3 -m venv` past its time (a clean
    /// clone's CI run beside other work), where one after another each takes seconds.
    private actor Creations {
        static let shared = Creations()
        private var running: [String: Task<String, any Error>] = [:]
        /// The last creation queued: the next waits for it.
        private var last: Task<Void, Never>?

        func python(_ name: String, _ make: @escaping @Sendable () async throws -> String) async throws -> String {
            if let task = running[name] { return try await task.value }
            let previous = last
            let task = Task {
                await previous?.value
                return try await make()
            }
            last = Task { _ = try? await task.value }
            running[name] = task
            do {
                return try await task.value
            } catch {
                running[name] = nil  // the next test tries again
                throw error
            }
        }
    }

    private static func create(_ name: String, packages: [String], module: String) async throws -> String {
        let pins = try packages.map { package -> (name: String, version: String) in
            let parts = package.components(separatedBy: "==")
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw Failure("\(package) is not pinned: write it as NAME==VERSION") }
            return (parts[0], parts[1])
        }
        let venv = InProcessMockAuth.packageRoot.appendingPathComponent(".build/\(name)").path
        let python = venv + "/bin/python"
        let versions = pins.map { "importlib.metadata.version('\($0.name)') == '\($0.version)'" }.joined(separator: " and ")
        let check = "import importlib.metadata, \(module); import sys; sys.exit(0 if \(versions) else 3)"
        if FileManager.default.isExecutableFile(atPath: python) {
            let checked = try await Command.run(python, ["-c", check], timeout: .seconds(30))
            if checked.status == 0 { return python }
        }
        let created = try await Command.run("/usr/bin/python3", ["-m", "venv", "--clear", venv], timeout: .seconds(300))
        guard created.status == 0 else {
            throw Failure("python3 -m venv \(venv) failed (timed out: \(created.timedOut), status \(created.status)): \(created.stderr)")
        }
        let installed = try await Command.run(
            python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages, timeout: .seconds(300))
        guard installed.status == 0 else {
            throw Failure("pip install \(packages.joined(separator: " ")) failed (timed out: \(installed.timedOut)): \(installed.stderr)")
        }
        let verified = try await Command.run(python, ["-c", check], timeout: .seconds(30))
        guard verified.status == 0 else { throw Failure("\(packages.joined(separator: " ")) are not what \(venv) holds after the install: \(verified.stderr)") }
        return python
    }

    /// Why a virtualenv could not be had.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
