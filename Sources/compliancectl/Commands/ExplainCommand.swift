import ArgumentParser
import ControlClient
import Foundation
import Flows
import HTTPClient
import JSON

/// `compliancectl explain ACCOUNT`: the account's compliance story from the daemon's events
/// (and the mock issuer's request log when one is reachable), with a diagnosis of the known loops.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Tell an account's compliance story: each 53005, remediation, enrollment and policy status, wipe; and why it loops.",
        discussion: """
            Reads the daemon's event log for the account (every event the daemon still keeps; \
            see complianced --event-retention) and, when the daemon's issuer is a mockauth on \
            loopback (or --mock names one), the mock's request log for that user. Ends with a \
            diagnosis line for each known loop found:
              - a remediation's retried request met 53005 again after the MAM service took its \
            Compliant report (the issuer does not see the compliance);
              - a remediation received policy (100/101/208) but its compliance report failed, and \
            the same request met 53005 again;
              - 53009: the app does not declare protapp, nothing can remediate it.
            A first 53005, or one after the issuer forgot a compliance, is no loop: it starts \
            a remediation. Accounts the daemon keeps no record of (a first sign-in refused) are \
            told from their events.
            Exit status 0 when no loop is found, 1 when one is.

            Examples:
              compliancectl explain alice@contoso.com
              compliancectl explain alice@contoso.com --json | jq .diagnoses
              compliancectl explain alice@contoso.com --mock http://127.0.0.1:8080
              compliancectl explain alice@contoso.com --mock https://127.0.0.1:8443 --ca-file DIR/tls/cert.pem
            """)

    @OptionGroup var daemon: DaemonOptions

    @Argument(help: ArgumentHelp("The account (a UPN).", valueName: "account"))
    var account: String

    @Option(name: .long, help: ArgumentHelp("A mockauth base URL whose request log to read (default: the daemon's issuer when it is on loopback).", valueName: "url"))
    var mock: String?

    @Flag(name: .customLong("no-mock"), help: "Do not read a mock's request log.")
    var noMock = false

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM file of CAs to trust for an https mock (mockauth --tls-self-signed DIR writes DIR/cert.pem).", valueName: "pem"))
    var caFile: String?

    func validate() throws {
        try Arguments.account(account)
        if mock != nil, noMock { throw ValidationError("give --mock or --no-mock, not both.") }
        if let mock, !(mock.hasPrefix("http://") || mock.hasPrefix("https://")) {
            throw ValidationError("--mock must be an http(s) URL, got '\(URLRedaction.hidingUserInfo(mock))'.")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file: cannot read '\(caFile)'.")
        }
    }

    func run() async throws {
        let client = daemon.client()
        let key: String
        let events: [JSONValue]
        let issuer: String?
        do {
            // The daemon's own spelling of the account (lower-cased, NFC) is what its events carry.
            // The story is the event log's: an account the daemon keeps no record of (a first
            // sign-in refused with 53009) still has its events.
            do {
                key = try await client.account(account)["account"]?.stringValue ?? Self.key(account)
            } catch where error.apiCode == "unknown_account" {
                key = Self.key(account)
            }
            issuer = try await client.health()["issuer"]?.stringValue
            events = try await Self.allEvents(client)
        } catch {
            throw DaemonCall.fail(error, json: daemon.json)
        }
        guard events.contains(where: { ComplianceStory.concerns($0, key) }) else {
            throw DaemonCall.fail(ControlClientError(
                .refused(status: 404, code: "unknown_account"),
                "the daemon's event log holds no event of \(key) (see complianced --event-retention)"), json: daemon.json)
        }
        var note: String?
        var requests: [JSONValue] = []
        if !noMock, let base = mock ?? issuer.flatMap(Self.loopbackOrigin) {
            do {
                requests = try await MockAdmin(origin: base.hasSuffix("/") ? String(base.dropLast()) : base, caFile: caFile).requests()
            } catch {
                // A password in --mock's user information is never printed.
                note = "no mock request log at \(URLRedaction.hidingUserInfo(base)): \(error.message)"
                    + (base.hasPrefix("https://") && caFile == nil ? "; give --ca-file PEM to trust an https mock" : "")
            }
        }
        let story = ComplianceStory(account: key, events: events, requests: requests)
        if daemon.json {
            var json = story.json
            if case .object(var object) = json, let note {
                object["note"] = .string(note)
                json = .object(object)
            }
            print(json.encodedString())
        } else {
            Terminal.say("compliance story of \(key) (\(story.lines.count) lines, \(story.protectionRequiredCount) × 53005)")
            for line in story.lines {
                Terminal.say("\(line.seq.map { "#\($0)" } ?? "mock") \(line.seq == nil ? line.time : Describe.time(Int64(line.time).map(JSONValue.int))) \(line.text)")
            }
            if let note { Terminal.say(note) }
            if story.diagnoses.isEmpty {
                Terminal.say("diagnosis: no known loop")
            } else {
                for diagnosis in story.diagnoses { Terminal.say("diagnosis: \(diagnosis.message)") }
            }
        }
        if !story.diagnoses.isEmpty { throw Exit.failed }
    }

    /// The daemon's key of an account: lower-cased, NFC.
    static func key(_ account: String) -> String {
        account.lowercased().precomposedStringWithCanonicalMapping
    }

    /// Every event the daemon keeps, oldest first.
    static func allEvents(_ client: ControlClient) async throws(ControlClientError) -> [JSONValue] {
        var all: [JSONValue] = []
        var cursor: Int64 = 0
        while true {
            let page = try await client.events(since: cursor, limit: 1000)["events"]?.arrayValue ?? []
            all += page
            cursor = page.last?["seq"]?.intValue ?? cursor
            if page.count < 1000 { return all }
        }
    }

    /// The origin of an issuer URL on loopback (`http://127.0.0.1:8080`), or nil: only a
    /// local mock is asked for its request log unasked.
    static func loopbackOrigin(_ issuer: String) -> String? {
        guard let origin = MockAdmin.origin(ofAuthority: issuer), let host = URLComponents(string: origin)?.host,
              ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        else { return nil }
        return origin
    }
}
