import Foundation
import HTTPClient
import Testing
import LocalServers

/// complianced refuses a bad configuration before it touches the disk, naming the path and
/// the rule, with exit 2; an existing state directory open to others is restricted to 0700.
@Suite struct StartupCheckTests {
    static func start(_ stateDirectory: String, _ extra: [String] = [], app: String = DaemonHarness.appsDirectory + "/chatr-Info.plist") async throws -> Command.Result {
        try await Command.run(
            ChildServer.executable("complianced"),
            ["--state-dir", stateDirectory, "--app", app, "--authority", "http://127.0.0.1:9/contoso.com", "--clock", "virtual"] + extra,
            timeout: .seconds(30))
    }

    @Test func aBadConfigurationExitsTwoNamingWhatIsWrongAndLeavesNoStateDirectory() async throws {
        let base = NSTemporaryDirectory() + "startup-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let fresh = base + "/state"
        let cases: [(String, [String], String)] = [
            (fresh, ["--ca-file", base + "/missing.pem"], "--ca-file '\(base)/missing.pem' is not a readable file"),
            (base + "/" + String(repeating: "s", count: 120), [], "a unix socket path holds at most 107"),
        ]
        for (directory, extra, message) in cases {
            let result = try await Self.start(directory, extra)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory), "nothing created for \(extra)")
        }
        let missingApp = try await Self.start(fresh, app: base + "/missing-Info.plist")
        #expect(missingApp.status == 2 && missingApp.stderr.contains("missing-Info.plist"), "\(missingApp.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))

        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/a-file", contents: Data())
        let notADirectory = try await Self.start(base + "/a-file")
        #expect(notADirectory.status == 2 && notADirectory.stderr.contains("exists and is not a directory"), "\(notADirectory.stderr)")
        #expect(!notADirectory.stderr.contains("NSCocoaErrorDomain"))
        let underAFile = try await Self.start(base + "/a-file/state")
        #expect(underAFile.status == 2 && underAFile.stderr.contains("'\(base)/a-file' is not a directory"), "\(underAFile.stderr)")
        #expect(!underAFile.stderr.contains("NSCocoaErrorDomain"))
        // Links that lead nowhere, as the directory or on its way; an empty name.
        try FileManager.default.createSymbolicLink(atPath: base + "/dangling", withDestinationPath: base + "/nowhere")
        try FileManager.default.createSymbolicLink(atPath: base + "/loop", withDestinationPath: base + "/loop")
        for (directory, message) in [
            (base + "/dangling", "--state-dir '\(base)/dangling' is a symbolic link to nothing"),
            (base + "/loop", "--state-dir '\(base)/loop' is a loop of symbolic links"),
            (base + "/loop/state", "'\(base)/loop' is a loop of symbolic links"),
            (base + "/dangling/state", "'\(base)/dangling' is a symbolic link to nothing"),
        ] {
            let refused = try await Self.start(directory)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(directory): \(refused.stderr)")
        }
        // An unset variable (`--state-dir "$STATE"`): a usage error, the current directory untouched.
        let empty = try await Self.start("")
        #expect(empty.status == 64 && empty.stderr.contains("--state-dir is empty"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: base + "/nowhere"))
        for (app, reason) in [("/dev/null", "the file is empty"), (base, "it is a directory")] {
            let refused = try await Self.start(fresh, app: app)
            #expect(refused.status == 2 && refused.stderr.contains("\(app): ") && refused.stderr.contains(reason), "\(refused.stderr)")
            #expect(!refused.stderr.contains("NSCocoaErrorDomain") && !refused.stderr.contains("permission"), "\(refused.stderr)")
        }
    }

    /// Nobody reads the ready line (`complianced … | true`): the daemon serves on. It died in its
    /// start (SIGILL: Foundation traps when a write fails with EPIPE).
    @Test func aReaderOfTheReadyLineThatWentAwayDoesNotStopTheDaemon() async throws {
        let base = NSTemporaryDirectory() + "startup-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ChildServer.executable("complianced"))
        process.arguments = [
            "--state-dir", base, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist", "--authority", "http://127.0.0.1:9/contoso.com",
            "--clock", "virtual", "--log-level", "error",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try output.fileHandleForReading.close()  // the reader is gone before the daemon writes
        try process.run()
        var configuration = HTTPClientConfiguration()
        configuration.unixSocketPath = base + "/control.sock"
        configuration.totalTimeout = .seconds(10)
        let client = HTTPClient(configuration: configuration)
        var answered = false
        for _ in 0..<300 where process.isRunning && !answered {
            try await Task.sleep(for: .milliseconds(100))
            answered = (try? await client.execute(HTTPClientRequest(method: .get, url: "http://localhost/v1/clock")))?.status == 200
        }
        try await Task.sleep(for: .milliseconds(300))  // the ready line is written once every listener runs
        #expect(answered && process.isRunning, "the daemon \(process.isRunning ? "did not answer" : "ended: \(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus)")")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus)")
    }

    @Test func anExistingStateDirectoryOpenToOthersIsRestrictedAndTheReadyLineIsAbsolute() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                #expect(chmod(directory, 0o777) == 0)
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let mode = (try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber)?.intValue
                #expect(mode == 0o700)
                #expect(daemon.readyLine == "listening on unix:\(URL(fileURLWithPath: directory).standardizedFileURL.path)/control.sock")
                await daemon.stop()
            }
        }
    }
}
