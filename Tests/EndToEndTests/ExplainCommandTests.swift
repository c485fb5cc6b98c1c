import ControlClient
import Foundation
import HTTPClient
import JSON
import LocalServers
import Testing

/// `compliancectl explain`: the story read from the events, and its diagnoses.
@Suite struct ExplainCommandTests {
    @Test func aRemediatedAccountTellsItsStoryAndComplianceForgottenIsNoLoop() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")

            let clean = try await CLI.run(["explain", "Alice@Contoso.com"] + at)
            #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
            for text in [
                "compliance story of alice@contoso.com", "signed in", "53005 protection_policy_required for api://contoso-chat/Chat.Read",
                "correlation id ", "remediation started", "enrollment: NewPoliciesReceived (100)", "remediation report: Compliant (0)",
                "token for api://contoso-chat/Chat.Read, xms_cc [\"protapp\"]", "oauth2/v2.0/token → 400 (grant authorization_code)",
                "mock saw POST /mam/v1/enroll → 200", "diagnosis: no known loop",
            ] {
                #expect(clean.stdout.contains(text), "missing '\(text)' in\n\(clean.stdout)")
            }
            #expect(!clean.stdout.contains("eyJ") && !clean.stdout.contains("Passw0rd!"))

            // The guide's "compliance forgotten": the issuer asks again (53005), and the next
            // remediation ends Compliant. That is how CA works, not a loop.
            let http = HTTPClient()
            let reset = try await http.execute(.json(method: .post, url: mock.url + "/_admin/users/alice@contoso.com/compliance/reset", body: Array("{}".utf8)))
            #expect(reset.status == 200)
            _ = try await CLI.run(["clock", "advance", "2h"] + at)
            let blocked = try await CLI.run(["token", "alice@contoso.com", "--scope", "api://contoso-chat/Chat.Read", "--no-remediate"] + at)
            #expect(blocked.status == 1, "\(blocked.stdout)")
            let remediated = try await CLI.run(["token", "alice@contoso.com", "--scope", "api://contoso-chat/Chat.Read"] + at)
            #expect(remediated.status == 0, "\(remediated.stdout)")

            let again = try await CLI.run(["explain", "alice@contoso.com", "--json"] + at)
            #expect(again.status == 0, "compliance forgotten then remediated is no loop: \(again.stdout)")
            #expect(again.json["protectionRequired"] == 3, "\(again.stdout)")
            #expect(again.json["diagnoses"] == [], "\(again.stdout)")
            #expect(again.json["ending"] == "Compliant")

            let unknown = try await CLI.run(["explain", "nobody@contoso.com"] + at)
            #expect(unknown.status == 1, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("no event of nobody@contoso.com"), "\(unknown.stderr)")
        }
    }

    /// A first sign-in refused with 53009 leaves no account record, but its events tell the
    /// story; and the mock's log is read over https with --ca-file.
    @Test func a53009AtTheFirstSignInIsExplainedFromTheEventsOverHTTPS() async throws {
        try await DaemonCommandTests.withDaemonProcess(app: "chatr-noprotapp-Info.plist", tls: true) { directory, mock, _ in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 1, "\(signIn.stdout)\(signIn.stderr)")

            let tlsURL = try #require(mock.tlsURL)
            let untrusted = try await CLI.run(["explain", "alice@contoso.com", "--mock", tlsURL] + at)
            #expect(untrusted.stdout.contains("no mock request log at \(tlsURL)"), "\(untrusted.stdout)")
            #expect(untrusted.stdout.contains("give --ca-file PEM"), "the note names the option: \(untrusted.stdout)")

            let explained = try await CLI.run(["explain", "alice@contoso.com", "--mock", tlsURL, "--ca-file", try #require(mock.caFile)] + at)
            #expect(explained.status == 1, "a 53009 is a diagnosis: \(explained.stdout)\(explained.stderr)")
            #expect(explained.stdout.contains("53009 for api://contoso-chat/Chat.Read"), "\(explained.stdout)")
            #expect(explained.stdout.contains("diagnosis: 53009"), "\(explained.stdout)")
            #expect(explained.stdout.contains("oauth2/v2.0/token → 400 (grant authorization_code)"), "\(explained.stdout)")
            #expect(!explained.stdout.contains("no mock request log"), "\(explained.stdout)")

            let missing = try await CLI.run(["explain", "alice@contoso.com", "--ca-file", directory + "/no-such.pem"] + at)
            #expect(missing.status == 64 && missing.stderr.contains("no-such.pem"), "\(missing.stderr)")
        }
    }

    /// A --mock URL with a password in it (`http://user:password@host:port`): the mock is read,
    /// and no output, note or error repeats the user information.
    @Test func aPasswordInTheMockURLIsNeverPrinted() async throws {
        try await DaemonCommandTests.withDaemon { directory, mock in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            // A port bound on 127.0.0.1 that does not listen: the mock's log cannot be read.
            let closed = try ClosedPort()
            defer { closed.close() }
            let withPassword = "http://ops:S3cretPw@127.0.0.1:\(closed.port)"
            let text = try await CLI.run(["explain", "alice@contoso.com", "--mock", withPassword] + at)
            #expect(text.stdout.contains("no mock request log at http://***@127.0.0.1:\(closed.port)"), "\(text.stdout)")
            let json = try await CLI.run(["explain", "alice@contoso.com", "--json", "--mock", withPassword] + at)
            #expect(json.json["note"]?.stringValue?.hasPrefix("no mock request log at http://***@127.0.0.1:\(closed.port)") == true, "\(json.stdout)")
            // The running mock, with a password it does not ask for: its log is read.
            let reached = try await CLI.run(["explain", "alice@contoso.com", "--mock", mock.url.replacingOccurrences(of: "http://", with: "http://ops:S3cretPw@")] + at)
            #expect(reached.stdout.contains("mock saw POST /mam/v1/enroll"), "\(reached.stdout)")
            let wrongScheme = try await CLI.run(["explain", "alice@contoso.com", "--mock", "ftp://ops:S3cretPw@127.0.0.1:21"] + at)
            #expect(wrongScheme.status == 64 && wrongScheme.stderr.contains("got 'ftp://***@127.0.0.1:21'"), "\(wrongScheme.stderr)")
            for result in [text, json, reached, wrongScheme] {
                #expect(!(result.stdout + result.stderr).contains("S3cretPw") && !(result.stdout + result.stderr).contains("ops:"), "\(result.stdout)\(result.stderr)")
            }
        }
    }

    // MARK: - The diagnoses, from the events alone

    static func event(_ seq: Int64, _ kind: String, _ payload: JSONValue = [:], account: String = "alice@contoso.com") -> JSONValue {
        ["seq": .int(seq), "time": .int(1_700_000_000_000 + seq), "kind": .string(kind), "account": .string(account), "payload": payload]
    }

    static let blocked53005: JSONValue = [
        "kind": "protectionPolicyRequired", "errorCodes": [53005], "suberror": "protection_policy_required", "scopes": ["api://x/Read"],
        "correlationId": "c0ffee",
    ]

    static func report(_ code: Int64, _ name: String) -> JSONValue {
        ["report": ["status": ["code": .int(code), "name": .string(name)], "message": "m"]]
    }

    static func policy(_ code: Int64) -> JSONValue {
        ["status": .int(code), "statusName": code == 100 ? "NewPoliciesReceived" : "PoliciesHaveNotChanged"]
    }

    static func failedReport(_ code: Int64, _ name: String, enrollment: Int64) -> JSONValue {
        ["report": ["status": ["code": .int(code), "name": .string(name)], "enrollmentStatus": ["code": .int(enrollment), "name": "InternalError"]]]
    }

    @Test func aFirst53005IsNoLoop() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "signedIn"), Self.event(2, "tokenFailed", Self.blocked53005), Self.event(3, "remediationStarted"),
            Self.event(4, "enrollment", Self.policy(100)), Self.event(5, "tokenAcquired", ["scopes": ["api://x/Read"]]),
            Self.event(6, "compliance", Self.report(0, "Compliant")),
        ])
        #expect(story.diagnoses.isEmpty)
        #expect(story.protectionRequiredCount == 1)
        #expect(story.ending == "Compliant")
        #expect(story.lines[1].text.contains("(correlation id c0ffee)"))
    }

    /// The seed's test case 2: policy at registration (no report, none needed), then CA: the
    /// first 53005 is remediated. No loop.
    @Test func policyAtRegistrationThenAFirst53005IsNoLoop() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "signedIn"), Self.event(4, "enrollment", Self.policy(100)), Self.event(5, "restartRequired"),
            Self.event(10, "tokenFailed", Self.blocked53005), Self.event(11, "remediationStarted"),
            Self.event(12, "enrollment", Self.policy(101)), Self.event(13, "compliance", Self.report(0, "Compliant")),
        ])
        #expect(story.diagnoses.isEmpty, "\(story.diagnoses)")
    }

    /// Compliance forgotten by the issuer: 53005 after a Compliant report, remediated again.
    @Test func complianceForgottenAndRemediatedIsNoLoop() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "tokenFailed", Self.blocked53005), Self.event(2, "remediationStarted"), Self.event(3, "enrollment", Self.policy(100)),
            Self.event(4, "compliance", Self.report(0, "Compliant")),
            Self.event(5, "tokenFailed", Self.blocked53005), Self.event(6, "remediationStarted"), Self.event(7, "enrollment", Self.policy(101)),
            Self.event(8, "compliance", Self.report(0, "Compliant")),
        ])
        #expect(story.diagnoses.isEmpty, "\(story.diagnoses)")
    }

    /// The loop: the MAM service took the report, and the retried request met 53005 again.
    @Test func theRetriedRequestBlockedAgainIsTheLoop() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "tokenFailed", Self.blocked53005), Self.event(2, "remediationStarted"), Self.event(3, "enrollment", Self.policy(100)),
            Self.event(4, "tokenFailed", Self.blocked53005), Self.event(5, "compliance", Self.report(1, "NotCompliant")),
        ])
        #expect(story.diagnoses.map(\.kind) == [.protectionRequiredAfterCompliant])
        #expect(story.diagnoses.first?.evidence == [3, 4])
        #expect(story.diagnoses.first?.message.contains("the retried request met 53005 again (#4)") == true)
        #expect(story.ending == "NotCompliant")
    }

    @Test func policyWithoutComplianceThen53005() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "tokenFailed", Self.blocked53005), Self.event(2, "remediationStarted"),
            Self.event(3, "enrollment", Self.policy(100)),
            Self.event(4, "compliance", Self.failedReport(2, "ServiceFailure", enrollment: 201)),
            Self.event(5, "tokenFailed", Self.blocked53005),
        ])
        #expect(story.diagnoses.map(\.kind) == [.policyWithoutCompliance])
        #expect(story.diagnoses.first?.evidence == [3, 4, 5])
    }

    @Test func a53005ForAnotherRequestIsNotTheLoop() {
        let other: JSONValue = ["kind": "protectionPolicyRequired", "errorCodes": [53005], "scopes": ["api://y/Write"]]
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "tokenFailed", Self.blocked53005), Self.event(2, "remediationStarted"),
            Self.event(3, "enrollment", Self.policy(100)),
            Self.event(4, "compliance", Self.failedReport(2, "ServiceFailure", enrollment: 201)),
            Self.event(5, "tokenFailed", other),
        ])
        #expect(story.diagnoses.isEmpty, "\(story.diagnoses)")
    }

    @Test func aWipeStartsTheStoryAfresh() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "compliance", Self.report(0, "Compliant")),
            Self.event(2, "wipeStarted", ["reason": "adminCommand"]),
            Self.event(3, "tokenFailed", Self.blocked53005),
        ])
        #expect(story.diagnoses.isEmpty)
        #expect(story.lines[1].text == "selective wipe started (adminCommand)")
    }

    @Test func capabilityMissingIs53009() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(7, "tokenFailed", ["kind": "capabilityMissing", "errorCodes": [53009], "scopes": ["api://x/Read"]]),
            Self.event(8, "tokenAcquired", ["scopes": ["api://y/Read"], "xmsCC": []], account: "bob@contoso.com"),
        ])
        #expect(story.lines.count == 1, "bob's events are not alice's story")
        #expect(story.diagnoses.map(\.kind) == [.capabilityMissing])
        #expect(story.diagnoses.first?.message.contains("protapp") == true)
    }

    @Test func anAllowedListThatDropsTheAccountIsPartOfItsStory() {
        let story = ComplianceStory(account: "dave@contoso.com", events: [
            ["seq": 3, "time": 1, "kind": "allowedAccountsChanged", "account": .null, "payload": ["removed": ["dave@contoso.com"]]],
            ["seq": 4, "time": 2, "kind": "allowedAccountsChanged", "account": .null, "payload": ["removed": ["erin@contoso.com"]]],
        ])
        #expect(story.lines.map(\.text) == ["allowed accounts changed: dave@contoso.com is no longer allowed"])
    }
}

/// A TCP port on 127.0.0.1 (port 0: the system's pick) that is bound but not listening, so a
/// connection to it is refused; held until ``close()``.
struct ClosedPort {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard descriptor >= 0, bound else {
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            throw CLIError("cannot bind a port on 127.0.0.1: errno \(errno)")
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() { _ = Glibc.close(descriptor) }
}
