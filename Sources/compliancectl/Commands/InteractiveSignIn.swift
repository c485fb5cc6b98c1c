import ControlClient
import Dispatch
import Foundation
import JSON
import Synchronization

/// A sign-in a person completes outside the daemon: opens an interaction, starts the sign-in
/// with it, prints what the person must do as soon as the daemon knows it (the URL, opened
/// with `xdg-open` when there is one; or the verification URI and code), and waits. Ctrl-C
/// (or SIGTERM) cancels the interaction: the sign-in ends UserCancelled and the command exits 130.
/// A device-code sign-in with a timeout is cancelled the same way when nobody approved it in time.
struct InteractiveSignIn {
    enum Method {
        case browser(open: Bool, timeoutSeconds: Int?)
        case deviceCode(timeoutSeconds: Int?)
    }

    /// How a wait ended besides its answer.
    struct Ending {
        /// Ctrl-C or SIGTERM cancelled it.
        var interrupted: Bool
        /// The device-code timeout cancelled it.
        var timedOut: Bool
    }

    let method: Method
    /// Prompts go to stderr when stdout carries JSON.
    let json: Bool

    /// Runs `signIn` with the interaction's user; returns its answer and whether Ctrl-C cancelled it.
    func run(
        _ client: ControlClient, _ signIn: @escaping @Sendable (ControlClient.User) async throws(ControlClientError) -> JSONValue
    ) async throws(ControlClientError) -> (answer: JSONValue, ending: Ending) {
        let kind = if case .browser = method { "browser" } else { "deviceCode" }
        let opened = try await client.openInteraction(kind)
        guard let id = opened["id"]?.stringValue else { throw ControlClientError(.invalidResponse, "POST /v1/interactions: no id in the answer") }
        let user: ControlClient.User = switch method {
        case .browser(_, let timeout): .browser(interaction: id, timeoutSeconds: timeout)
        case .deviceCode: .deviceCode(interaction: id)
        }
        let timedOut = TimeoutFlag()
        let interrupted = InterruptWatch(cancel: { _ = try? await client.cancelInteraction(id) })
        defer { interrupted.stop() }
        // The prompt is shown while the sign-in runs; a sign-in that needs nobody (a cached
        // token) ends the wait for a prompt.
        let result = await withTaskGroup(of: Result<JSONValue, ControlClientError>?.self) { group in
            group.addTask {
                do throws(ControlClientError) { return .success(try await signIn(user)) } catch { return .failure(error) }
            }
            group.addTask {
                await showPrompt(client, id)
                return nil
            }
            if case .deviceCode(let seconds?) = method {
                group.addTask {  // nobody approved in time: cancelled as Ctrl-C would
                    guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return nil }
                    timedOut.set()
                    _ = try? await client.cancelInteraction(id)
                    return nil
                }
            }
            var answer: Result<JSONValue, ControlClientError>?
            for await finished in group {
                if let finished {
                    answer = finished
                    group.cancelAll()
                }
            }
            return answer!
        }
        _ = try? await client.cancelInteraction(id)  // forgotten by the daemon now (it ended)
        return (try result.get(), Ending(interrupted: interrupted.fired, timedOut: timedOut.isSet))
    }

    /// Prints each prompt of the interaction as it appears (a request may need the person
    /// again: a remediation's MAM token after a 53005), until the sign-in ends (this task is
    /// cancelled then) or the interaction does.
    private func showPrompt(_ client: ControlClient, _ id: String) async {
        var version: Int64 = 0
        var shown = 0
        while !Task.isCancelled {
            guard let state = try? await client.interaction(id, since: version, waitMilliseconds: 30_000) else { return }
            let current = state["version"]?.intValue ?? version
            defer { version = current }
            switch state["state"]?.stringValue {
            case "prompted" where current != version:
                if shown > 0 { print(["The sign-in needs you again (another token):"]) }
                print(lines(state))
                shown += 1
            case "pending", "prompted":
                continue
            default:
                return  // ended or cancelled
            }
        }
    }

    private func lines(_ state: JSONValue) -> [String] {
        switch method {
        case .browser(let open, _):
            let url = state["url"]?.stringValue ?? ""
            var lines = ["To sign in, open this URL in a browser:", "  \(url)"]
            if open, let opener = Self.executable("xdg-open") {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: opener)
                process.arguments = [url]
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                if (try? process.run()) != nil { lines.append("(opened with xdg-open)") }
            }
            lines.append("Waiting for the browser to come back (Ctrl-C cancels)…")
            return lines
        case .deviceCode:
            let uri = state["verificationUri"]?.stringValue ?? ""
            let code = state["userCode"]?.stringValue ?? ""
            var lines = ["To sign in, open \(uri) on any device and enter the code \(code)"]
            if let complete = state["verificationUriComplete"]?.stringValue { lines.append("  (or open \(complete))") }
            if let message = state["message"]?.stringValue { lines.append("  \(message)") }
            lines.append("Waiting for the sign-in (Ctrl-C cancels)…")
            return lines
        }
    }

    private func print(_ lines: [String]) {
        let text = lines.joined(separator: "\n") + "\n"
        Terminal.write(text, toStandardError: json)
    }

    /// The first `name` on PATH that may be executed.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}

/// Set once by the device-code timeout's task, read after the wait.
final class TimeoutFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

/// SIGINT and SIGTERM, while a sign-in waits for a person: the first runs `cancel` once
/// (instead of ending the process); ``fired`` says it happened.
final class InterruptWatch: @unchecked Sendable {  // the sources and flag are touched on `queue` only
    private let queue = DispatchQueue(label: "compliancectl.interrupt")
    private var sources: [any DispatchSourceSignal] = []
    private var didFire = false

    init(cancel: @escaping @Sendable () async -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self, !self.didFire else { return }
                self.didFire = true
                Task { await cancel() }
            }
            source.resume()
            sources.append(source)
        }
    }

    var fired: Bool { queue.sync { didFire } }

    func stop() {
        queue.sync {
            for source in sources { source.cancel() }
            sources = []
        }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
