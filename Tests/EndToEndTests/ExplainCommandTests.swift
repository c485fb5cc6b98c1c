import ControlClient
import Foundation
import HTTPClient
import JSON
import LocalServers
import Testing

/// `compliancectl explain`: the story read from the events, and its diagnoses.
@Suite struct ExplainCommandTests {
    @Test func aRemediatedAccountTellsItsStoryThenShowsTheLoopWhenComplianceIsForgotten() async throws {
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

            // The issuer forgets the compliance: the next token request gets 53005 again.
            let http = HTTPClient()
            let reset = try await http.execute(.json(method: .post, url: mock.url + "/_admin/users/alice@contoso.com/compliance/reset", body: Array("{}".utf8)))
            #expect(reset.status == 200)
            _ = try await CLI.run(["clock", "advance", "2h"] + at)
            let blocked = try await CLI.run(["token", "alice@contoso.com", "--scope", "api://contoso-chat/Chat.Read", "--no-remediate"] + at)
            #expect(blocked.status == 1, "\(blocked.stdout)")

            let looping = try await CLI.run(["explain", "alice@contoso.com", "--json"] + at)
            #expect(looping.status == 1, "a loop found exits 1: \(looping.stdout)")
            let story = looping.json
            #expect(story["protectionRequired"] == 2)
            #expect(story["diagnoses"]?[0]?["kind"] == "protectionRequiredAfterCompliant", "\(story)")
            #expect(story["diagnoses"]?[0]?["message"]?.stringValue?.contains("53005 came back after the MAM service took a Compliant report") == true)

            let unknown = try await CLI.run(["explain", "nobody@contoso.com"] + at)
            #expect(unknown.status == 1 || unknown.status == 64, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("nobody@contoso.com"))
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

    @Test func aFirst53005IsNoLoop() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "signedIn"), Self.event(2, "tokenFailed", Self.blocked53005), Self.event(3, "remediationStarted"),
            Self.event(4, "enrollment", ["status": 100, "statusName": "NewPoliciesReceived"]), Self.event(5, "compliance", Self.report(0, "Compliant")),
        ])
        #expect(story.diagnoses.isEmpty)
        #expect(story.protectionRequiredCount == 1)
        #expect(story.lines[1].text.contains("(correlation id c0ffee)"))
    }

    @Test func policyWithoutComplianceThen53005() {
        let story = ComplianceStory(account: "alice@contoso.com", events: [
            Self.event(1, "tokenFailed", Self.blocked53005),
            Self.event(2, "enrollment", ["status": 100, "statusName": "NewPoliciesReceived"]),
            Self.event(3, "compliance", Self.report(2, "ServiceFailure")),
            Self.event(4, "policy", ["status": 101, "statusName": "PoliciesHaveNotChanged"]),
            Self.event(5, "tokenFailed", Self.blocked53005),
            Self.event(6, "tokenFailed", Self.blocked53005),
        ])
        #expect(story.diagnoses.map(\.kind) == [.policyWithoutCompliance])
        #expect(story.diagnoses.first?.evidence == [2, 5, 6])
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
