import ChildProcess
import ControlClient
import Foundation
import JSON

/// The mockauth and complianced a flow runs against, started for it (ephemeral port,
/// temporary state directory, virtual clock) unless the options point at running ones.
final class FlowStack: @unchecked Sendable {  // used by one flow's runner at a time
    let options: RunOptions
    let flow: Flow
    private(set) var mock: ChildProcess?
    private(set) var daemon: ChildProcess?
    /// The started daemon's state directory.
    private(set) var stateDirectory: String?
    private(set) var authority = ""
    private(set) var client: ControlClient
    private(set) var admin: MockAdmin?

    init(options: RunOptions, flow: Flow) {
        self.options = options
        self.flow = flow
        client = ControlClient(socketPath: options.socket ?? "/nonexistent")
    }

    /// True when this stack started the daemon (so it can kill and restart it).
    var ownsDaemon: Bool { options.socket == nil }

    func start() async throws(FlowSetupError) {
        if let given = options.oidcIssuer {
            authority = given  // any issuer: no admin API
        } else if let given = options.authority {
            authority = given
        } else {
            guard let fixture = flow.fixture else { throw FlowSetupError("\(flow.file): mockauth needs a tenant fixture, and the flow names none") }
            let (mock, line) = try await launch(options.mockauthPath, ["serve", "--fixtures", fixture, "--port", "0", "--log-level", "warning"], what: "mockauth")
            self.mock = mock
            authority = line.replacingOccurrences(of: "listening on ", with: "") + "/" + (try Self.tenant(of: fixture))
        }
        if options.oidcIssuer == nil, let origin = MockAdmin.origin(ofAuthority: authority) { admin = MockAdmin(origin: origin, caFile: options.caFile) }
        if options.authority != nil, options.resetMock, let admin {
            // A shared mock: back to its fixtures so the flow starts from a known state.
            do { try await admin.call("POST", "reset") } catch { self.admin = nil }
        }
        if let socket = options.socket {
            client = ControlClient(socketPath: socket)
            do { _ = try await client.health() } catch { throw FlowSetupError("--socket: \(error.message)") }
            return
        }
        let directory = NSTemporaryDirectory() + "compliancectl-run-" + UUID().uuidString
        stateDirectory = directory
        // Stopped by a signal, the run ends without stop(): the directory goes with the daemon.
        if !options.keepState { ChildProcess.removeOnTermination(directory) }
        client = ControlClient(socketPath: directory + "/control.sock")
        try await startDaemon()
    }

    func startDaemon() async throws(FlowSetupError) {
        guard let stateDirectory else { return }
        let issuer = flow.issuerReachable ? authority : try Self.unreachableAuthority(like: authority)
        var arguments = [
            "--state-dir", stateDirectory, "--app", flow.app, options.oidcIssuer == nil ? "--authority" : "--oidc-issuer", issuer,
            "--clock", "virtual", "--log-level", options.daemonLogLevel,
        ]
        if let clientID = options.clientID { arguments += ["--client-id", clientID] }
        if let secret = options.clientSecretFile { arguments += ["--client-secret-file", secret] }
        if let method = options.clientAuth { arguments += ["--client-auth", method] }
        if let mamURL = options.mamURL { arguments += ["--mam-url", mamURL] }
        if let caFile = options.caFile { arguments += ["--ca-file", caFile] }
        if flow.needsTestHooks { arguments.append("--test-hooks") }
        if let wipeHook = flow.wipeHook { arguments += ["--wipe-hook", wipeHook] }
        if let restartHook = flow.restartHook { arguments += ["--restart-hook", restartHook] }
        if let identityHook = flow.identityHook { arguments += ["--identity-hook", identityHook] }
        daemon = try await launch(options.compliancedPath, arguments, what: "complianced").0
    }

    /// Stops the daemon (SIGKILL, or SIGTERM and a wait when `kill` is false) and starts it
    /// again on the same state directory.
    func restartDaemon(kill: Bool) async throws(FlowSetupError) {
        if let daemon {
            let status = await daemon.stop(graceful: kill ? .zero : .seconds(15))
            if !kill, status != .exited(0) { throw FlowSetupError("complianced did not stop cleanly on SIGTERM: \(status.map { "\($0)" } ?? "still running")") }
        }
        try await startDaemon()
    }

    /// True while the started daemon runs (always true for a daemon given by --socket).
    var daemonIsRunning: Bool { daemon?.isRunning ?? true }

    /// How the started daemon ended, if it did.
    var daemonExit: String? { daemon?.exitStatus.map { "\($0)" } }

    /// How the started daemon ended, if it did.
    var daemonExitStatus: ExitStatus? { daemon?.exitStatus }

    /// The crash marker the daemon left in its state directory (``CrashVerdict/markerName``),
    /// removed as it is read; nil when there is none.
    func takeCrashMarker() -> String? {
        guard let stateDirectory else { return nil }
        let path = stateDirectory + "/" + CrashVerdict.markerName
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        try? FileManager.default.removeItem(atPath: path)
        return String(decoding: data, as: UTF8.self)
    }

    /// The started daemon's last stderr lines (its log).
    func daemonLogTail(_ lines: Int = 8) -> [String] {
        guard let daemon else { return [] }
        return daemon.standardError.split(separator: "\n").suffix(lines).map(String.init)
    }

    /// Stops what it started; removes the state directory unless asked to keep it.
    func stop() async {
        await daemon?.stop(graceful: .seconds(10))
        await mock?.stop(graceful: .seconds(5))
        // Unless a signal's stop took it (it removes it once the daemon is reaped).
        if let stateDirectory, !options.keepState, ChildProcess.forgetOnTermination(stateDirectory) {
            try? FileManager.default.removeItem(atPath: stateDirectory)
        }
    }

    /// Starts a server and waits for its ready line (`listening on …`), which it returns.
    private func launch(_ executable: String, _ arguments: [String], what: String) async throws(FlowSetupError) -> (ChildProcess, String) {
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable, arguments: arguments)
        } catch {
            throw FlowSetupError("cannot start \(what): \(error.message)")
        }
        guard let line = await child.firstLine(timeout: options.startTimeout), line.hasPrefix("listening on ") else {
            await child.stop()
            let log = child.standardError.split(separator: "\n").suffix(5).joined(separator: "\n  ")
            throw FlowSetupError("\(what) did not get ready (\(child.exitStatus.map { "\($0)" } ?? "no ready line")):\n  \(log)")
        }
        return (child, line)
    }

    /// `authority` with its host and port replaced by a loopback port nothing listens on
    /// (bound, then closed, by this process).
    static func unreachableAuthority(like authority: String) throws(FlowSetupError) -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FlowSetupError("cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw FlowSetupError("cannot find a free loopback port") }
        let port = UInt16(bigEndian: address.sin_port)
        let path = authority.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).dropFirst(3).first.map { "/\($0)" } ?? ""
        return "http://127.0.0.1:\(port)\(path)"
    }

    /// The tenant path segment of a fixture: its tenant's domain.
    static func tenant(of fixture: String) throws(FlowSetupError) -> String {
        guard let data = FileManager.default.contents(atPath: fixture), let json = try? JSONValue.parseFile(Array(data)),
            let domain = json["tenant"]?["domain"]?.stringValue
        else { throw FlowSetupError("\(fixture) has no tenant.domain") }
        return domain
    }
}

/// Why a flow could not start or its servers could not be controlled.
public struct FlowSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension FlowStack {
    /// Waits (bounded) for the started daemon to exit; true when it is not running.
    func waitForDaemonExit(timeout: Duration = .seconds(5)) async -> Bool {
        guard let daemon else { return false }
        return await daemon.waitForExit(timeout: timeout)
    }
}
